package tools

import (
	"context"
	"encoding/json"
	"os/exec"
)

// Risk classifies what a tool can affect; the permission policy decides on it.
type Risk string

// The risks a tool can carry.
const (
	RiskRead     Risk = "read"
	RiskWrite    Risk = "workspace_write"
	RiskExec     Risk = "exec"
	RiskNetwork  Risk = "network"
	RiskDelegate Risk = "delegate"
	// RiskMemory is a write to the cross-session memory (the memory tool): outside the
	// workspace, scanned before it is stored, undone with troupe memory.
	RiskMemory Risk = "memory"
)

// DefaultMaxResultBytes is the result budget of a tool whose Spec sets none.
const DefaultMaxResultBytes = 32 << 10

// Spec is the model-facing and harness-facing half of a tool's contract.
type Spec struct {
	Name, Description string
	// Schema is the JSON Schema (draft 2020-12 subset) of the arguments object.
	Schema json.RawMessage
	Risk   Risk
	// PathArgs names the arguments that hold workspace paths; the path policy checks them
	// before the tool runs.
	PathArgs []string
	// MaxResultBytes bounds the output the model sees; 0 means DefaultMaxResultBytes.
	MaxResultBytes int
}

// resultBudget is the effective result budget of the spec.
func (s Spec) resultBudget() int {
	if s.MaxResultBytes > 0 {
		return s.MaxResultBytes
	}
	return DefaultMaxResultBytes
}

// Tool is one capability offered to the model.
type Tool interface {
	Spec() Spec
	// Run executes a call whose args were already repaired, validated and path-checked.
	// It must honour ctx and report failures as an error Result.
	Run(ctx context.Context, env *Env, args json.RawMessage) Result
}

// Result is what a call returns to the model.
type Result struct {
	Output  string
	IsError bool
	// Changed lists the workspace-relative paths the call wrote.
	Changed []string
	// Rejected says the lifecycle refused the call before any check or permission step
	// (unknown tool, invalid arguments, a path outside, a stale baseline): nothing ran.
	Rejected bool
	// Repairs lists what the lifecycle changed in the call to make it run, in order.
	Repairs []Repair
}

// RepairKind names one family of repair the harness makes to a model's tool call.
type RepairKind string

// The repair kinds (the tool.repaired event and the per-model counters use these names).
const (
	RepairTextFormat    RepairKind = "text_format"    // a call written as text in the reply
	RepairJSON          RepairKind = "json"           // broken JSON arguments
	RepairDoubleEncoded RepairKind = "double_encoded" // a JSON string holding the JSON object
	RepairWrapper       RepairKind = "wrapper"        // {"arguments":{...}} and the like
	RepairPyLiteral     RepairKind = "python_literal" // True, None, single quotes
	RepairBackslash     RepairKind = "backslash"      // unescaped Windows backslashes
	RepairCoercion      RepairKind = "coercion"       // a value converted to the schema's type
	RepairArgAlias      RepairKind = "arg_alias"      // an argument name mapped to ours
	RepairToolName      RepairKind = "tool_name"      // a tool name mapped to ours
	RepairDroppedNote   RepairKind = "dropped_note"   // an informational argument our schema lacks, dropped
	RepairRepeatedArg   RepairKind = "repeated_arg"   // a garbled repeat of an argument already given, dropped
	RepairContinuation  RepairKind = "continuation"   // a reply cut off by the output limit, continued
	RepairInferredTool  RepairKind = "inferred_tool"  // a reply of bare arguments, read as a call to the one tool they fit
	RepairStrayText     RepairKind = "stray_text"     // a literal \n between JSON tokens, tokens after the object
	RepairBareArg       RepairKind = "bare_argument"  // arguments that are the one required string itself, not JSON
	RepairSplitCall     RepairKind = "split_call"     // one call standing for several (a list of paths, edits, hunks), run as those calls in order
	RepairShellForm     RepairKind = "shell_form"     // a command as an argv array, a timeout in milliseconds
)

// Repair is one change the lifecycle made to a call: its kind and the text before and after
// (both short: previews, not whole arguments).
type Repair struct {
	Kind          RepairKind
	Before, After string
}

// Call is a tool call as the model proposed it.
type Call struct {
	ID, Name string
	// Args is the raw argument text, possibly malformed JSON.
	Args string
	// Inferred says the model named no tool: the harness read a reply of bare arguments as a
	// call to the one tool they fit. Outside yolo mode the gate asks before such a call does
	// anything but read (a guess about intent must not write on its own).
	Inferred bool
	// HookPermission is a PreToolUse hook's permission decision for the call: "allow" skips
	// asking (a deny rule still refuses it), "ask" asks even where the rules would allow.
	HookPermission string
}

// Sandbox confines the commands tools start. Wrap rewrites cmd before it starts (for example
// to run it through a launcher that restricts it); it must keep cmd.SysProcAttr.Setpgid.
type Sandbox interface {
	Wrap(cmd *exec.Cmd, env *Env) error
}

// errorResult is an error Result with a formatted message.
func errorResult(msg string) Result { return Result{Output: msg, IsError: true} }
