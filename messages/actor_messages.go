package messages

import (
	"encoding/json"
	"time"
)

// StartSession asks a Node to start (or resume) a session. It is sent to the Node subject.
type StartSession struct {
	ID      string `json:"id"` // chosen by the caller so it can subscribe to events first
	Task    string `json:"task,omitempty"`
	Model   string `json:"model"` // provider/model
	BaseURL string `json:"base_url,omitempty"`
	Mode    Mode   `json:"mode,omitempty"`
	// PromptMode is the prompt mode (code, plan, review, …): instructions and maybe fewer tools.
	PromptMode string `json:"prompt_mode,omitempty"`
	Workspace  string `json:"workspace"`
	// Cwd is the directory the user ran troupe from, relative to Workspace ("" for the root):
	// the instruction files from the root down to it go into the stable prefix.
	Cwd string `json:"cwd,omitempty"`
	// Interactive sessions wait for more input after a final answer; others finish.
	Interactive bool `json:"interactive,omitempty"`
	// Resume continues an existing session from its stored log.
	Resume   bool   `json:"resume,omitempty"`
	MaxTurns int    `json:"max_turns,omitempty"`
	Agent    string `json:"agent,omitempty"`  // e.g. "root"
	Parent   string `json:"parent,omitempty"` // parent session id, for subagents
	// Allow, Ask and Deny are the permission patterns of the configuration, e.g. "bash(git status*)".
	Allow []string `json:"allow,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	// Yes answers every approval request with allow (troupe run --yes); without it a headless
	// session that would have to ask is denied instead.
	Yes bool `json:"yes,omitempty"`
	// NoRepair switches turn repair off (the repair bench's baseline): calls written as text are
	// not recovered, loops are not steered, arguments and tool names are not repaired beyond
	// broken JSON, and writes are not syntax-checked.
	NoRepair bool `json:"no_repair,omitempty"`

	// A subagent's start (docs/DESIGN-NOTES.md "Subagents"): its role and the role's prompt, the
	// tools it may use (nil: all of the node's), its depth under the root, and its budget. AskUser
	// lets a child of an interactive parent put approval requests to the user (it is not
	// interactive itself).
	Role         string   `json:"role,omitempty"`
	RolePrompt   string   `json:"role_prompt,omitempty"`
	Tools        []string `json:"tools,omitempty"`
	Depth        int      `json:"depth,omitempty"`
	MaxTokens    int      `json:"max_tokens,omitempty"`
	MaxWallS     int      `json:"max_wall_s,omitempty"`
	AskUser      bool     `json:"ask_user,omitempty"`
	PlanSafeBash bool     `json:"plan_safe_bash,omitempty"`
	Verdict      bool     `json:"verdict,omitempty"`
	// Worktree names the git worktree the child runs in (its Workspace is the worktree's path).
	Worktree string `json:"worktree,omitempty"`
	// Placement is where this session's subagents run ([agents] placement: local, workers,
	// auto; "" is local). Children inherit it.
	Placement string `json:"placement,omitempty"`

	// Long horizon (docs/DESIGN-NOTES.md "Context"): ContextWindow overrides the model's window
	// (tokens); IdleGapS is the idle gap after which old outputs become previews (0: 30 min, <0:
	// never).
	ContextWindow int `json:"context_window,omitempty"`
	IdleGapS      int `json:"idle_gap_s,omitempty"`
	// Goal sets the session's objective at start (troupe run --goal). Check is the command that
	// must pass before a final answer is accepted ([done] check / --check); MaxRefusals bounds
	// the final answers refused before the run fails (0: 3). LoopStep marks one iteration of
	// troupe loop: it may end after one step without completing the goal.
	Goal        string `json:"goal,omitempty"`
	Check       string `json:"check,omitempty"`
	CheckS      int    `json:"check_timeout_s,omitempty"`
	MaxRefusals int    `json:"max_refusals,omitempty"`
	LoopStep    bool   `json:"loop_step,omitempty"`

	// The client that asked (docs/ARCHITECTURE.md "The node process"): Owner is its connection's
	// client id on the node's bus, and the node cancels the session when that connection goes
	// (0: no owner, as for a detached run). Env is its environment, so the node never relies on
	// the one it was started with.
	Owner uint64     `json:"owner,omitempty"`
	Env   *ClientEnv `json:"env,omitempty"`
}

// SessionAccepted answers StartSession.
type SessionAccepted struct {
	ID string `json:"id"`
	// Steer lets the client that started (or attached to) the session steer it and its
	// subagents: it goes in the Troupe-Steer header of each control message (docs/WORKERS.md
	// "Who may do what"); "" when the Node does not check.
	Steer string `json:"steer,omitempty"`
}

// AttachSession asks the Node for the right to steer a session this client did not start
// (troupe attach, approve, mode); the answer is a SessionAccepted with its Steer token. Only
// the Node subject takes it, which a watch credential may not publish to.
type AttachSession struct {
	Session string `json:"session"`
}

// UserInput is a line from the user: a task, a follow-up, or a /command.
type UserInput struct {
	Text string `json:"text"`
}

// InputAck answers UserInput: Routed says what the session did with it (model, command,
// ignored, busy), and Output carries a local command's answer.
type InputAck struct {
	Routed Route  `json:"routed"`
	Output string `json:"output,omitempty"`
}

// Route is where a line of input went, as InputAck.Routed.
type Route string

// Phase is where a session is in its turn, as StatusReply.Phase (docs/ARCHITECTURE.md "The session:
// a thin coordinator").
type Phase string

// Session phases.
const (
	PhaseIdle       Phase = "idle"
	PhaseCalling    Phase = "calling_model"
	PhaseExecuting  Phase = "executing_tools"
	PhaseWaiting    Phase = "waiting_agents" // the next model call waits for subagents
	PhaseCompacting Phase = "compacting"     // the Compactor summarizes a span before the next call
	PhaseChecking   Phase = "checking_done"  // the definition-of-done check command runs
	PhaseFinished   Phase = "finished"
)

// Input routes.
const (
	RoutedModel   Route = "model"
	RoutedCommand Route = "command"
	RoutedIgnored Route = "ignored"
	RoutedBusy    Route = "busy"
	// RoutedExit answers /exit: the client leaves (a chat ends its session, attach detaches).
	RoutedExit Route = "exit"
	// RoutedShell answers "!command": the command runs through the session's executor as a
	// call whose id starts with UserCallPrefix; its tool events show it, and the session is
	// idle again after its tool.finished.
	RoutedShell Route = "shell"
)

// UserCallPrefix starts the call id of a tool call the user made from the chat (!command,
// an @path mention) rather than the model.
const UserCallPrefix = "user-"

// Cancel stops what a session (or tool executor) is doing. For a session: the current turn is
// cut off, and the session finishes as interrupted unless it is interactive.
type Cancel struct {
	Reason string `json:"reason,omitempty"`
}

// ToolRequest asks a tool executor to run one call. An executor answers the session that spawned
// it, by PID; ReplyTo names the session's inbox for one that has no PID to answer.
type ToolRequest struct {
	Turn    int    `json:"turn"`
	CallID  string `json:"call_id"`
	Name    string `json:"name"`
	Args    string `json:"args"`
	ReplyTo string `json:"reply_to"` // actor address
	// Inferred says the model named no tool: the harness read its reply of bare arguments as a
	// call to the one tool they fit (tools.Call.Inferred). Outside yolo mode the executor asks
	// before such a call does anything but read.
	Inferred bool `json:"inferred,omitempty"`
}

// ToolStarted tells the session a call began executing.
type ToolStarted struct {
	CallID string `json:"call_id"`
}

// ToolResult is the outcome of a ToolRequest.
type ToolResult struct {
	Turn     int           `json:"turn"`
	CallID   string        `json:"call_id"`
	Name     string        `json:"name"`
	Output   string        `json:"output"`
	IsError  bool          `json:"is_error,omitempty"`
	Changed  []string      `json:"changed,omitempty"`
	Duration time.Duration `json:"duration"`
	// Repairs lists what the lifecycle repaired to make the call run (tool.repaired events).
	Repairs []Repair `json:"repairs,omitempty"`
	// Images are the images the call returned (read_file of an image, an MCP tool's image
	// content), kept in the artifact store; Output describes them.
	Images []Image `json:"images,omitempty"`
}

// Image is an image a tool returned, fitted to the providers' limits and stored as an
// artifact: Ref names it there.
type Image struct {
	Ref       string `json:"ref"`
	MediaType string `json:"media_type"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Bytes     int    `json:"bytes"`
}

// Repair is one change the harness made to a model's tool call (see tools.Repair).
type Repair struct {
	Kind   string `json:"kind"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// GetRepairStats asks a Node for the project's per-model repair counters.
type GetRepairStats struct{}

// RepairStatsReply answers GetRepairStats, one record per model, by model name.
type RepairStatsReply struct {
	Models []RepairCounts `json:"models"`
}

// RepairCounts is one model's tool calls in the project and what the harness repaired in them
// (counts by tools.RepairKind); Repaired counts calls with at least one repair.
type RepairCounts struct {
	Model    string         `json:"model"`
	Calls    int            `json:"calls"`
	Repaired int            `json:"repaired"`
	ByKind   map[string]int `json:"by_kind,omitempty"`
	// Wire counts the replies that needed each leniency of the OpenAI-compatible wire.
	Wire map[string]int `json:"wire,omitempty"`
}

// ListSessions asks a Node for the sessions in its store.
type ListSessions struct{}

// SessionList answers ListSessions, most recently touched first.
type SessionList struct {
	Sessions []SessionInfo `json:"sessions"`
}

// SessionInfo is a stored session as the wire carries it (the store keeps its own record;
// this is the contract clients see).
type SessionInfo struct {
	ID        string `json:"id"`
	Parent    string `json:"parent,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Model     string `json:"model,omitempty"`
	BaseURL   string `json:"base_url,omitempty"`
	Task      string `json:"task,omitempty"`
	Mode      string `json:"mode,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	// Status is running, done, failed, interrupted or cancelled; a session stored as running
	// whose process is gone is reported as interrupted.
	Status string `json:"status"`
	// Error is why a session that did not end done ended so ("" while it runs, and when done).
	Error        string    `json:"error,omitempty"`
	Created      time.Time `json:"created"`
	Updated      time.Time `json:"updated"`
	Turns        int       `json:"turns"`
	InputTokens  int       `json:"input_tokens"`
	OutputTokens int       `json:"output_tokens"`
	// Attached says an interactive client (a chat) follows the session: stopping the node
	// interrupts someone at a terminal.
	Attached bool `json:"attached,omitempty"`
}

// GetLog asks a Node for one page of a session's stored log: the entries after seq After.
type GetLog struct {
	Session string `json:"session"`
	After   uint64 `json:"after,omitempty"`
}

// LogReply answers GetLog: the session and one page of its log. More says a further page
// follows (ask again with After set to the last entry's Seq): a long session never has to fit
// in one bus message.
type LogReply struct {
	Meta    SessionInfo `json:"meta"`
	Entries []LogEntry  `json:"entries"`
	More    bool        `json:"more,omitempty"`
}

// LogEntry is one entry of a session's log as the wire carries it.
type LogEntry struct {
	Seq       uint64          `json:"seq"`
	Kind      LogKind         `json:"kind"`
	Time      time.Time       `json:"time"`
	Text      string          `json:"text,omitempty"`
	Reasoning string          `json:"reasoning,omitempty"`
	Model     string          `json:"model,omitempty"`
	Calls     []LogCall       `json:"calls,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	ToolName  string          `json:"tool_name,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Event     string          `json:"event,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// LogKind is what a log entry records.
type LogKind string

// The log entry kinds.
const (
	LogUser       LogKind = "user"
	LogAssistant  LogKind = "assistant"
	LogToolResult LogKind = "tool_result"
	LogCompact    LogKind = "compact"
	LogSystem     LogKind = "system"
)

// LogCall is one tool call of an assistant entry.
type LogCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Args string `json:"args"`
}

// ClientEnv is the environment a client hands the node with a session start. Environ is what
// tool commands and the processes they start get, filtered on the client as tool commands'
// environment always is (actors.CommandEnviron: no credentials unless passed on purpose);
// Provider holds the provider variables set there (API keys, endpoints), which only the
// provider reads. It travels on the bus and is never stored.
type ClientEnv struct {
	Environ  []string          `json:"environ"`
	Provider map[string]string `json:"provider,omitempty"`
}

// StatusRequest asks a session for its state, answered locally without a model call. Sent to a
// Node's read-only query subject it names the session (Session), and the Node asks it: a
// watcher, which may not publish to control subjects, learns a session's state so.
type StatusRequest struct {
	Session string `json:"session,omitempty"`
}

// StatusReply answers StatusRequest.
type StatusReply struct {
	Session      string `json:"session"`
	Phase        Phase  `json:"phase"`
	Model        string `json:"model"`
	Mode         Mode   `json:"mode"`
	Turns        int    `json:"turns"`
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
	// The context: tokens of the next call (provider count plus the estimated tail), the
	// window, and the compactions so far.
	ContextTokens int   `json:"context_tokens"`
	ContextWindow int   `json:"context_window"`
	Compactions   int   `json:"compactions"`
	Goal          *Goal `json:"goal,omitempty"`
	Agents        int   `json:"agents_running,omitempty"`
	// Repairs is this session's repair counters in one line ("" before its first call).
	Repairs string `json:"repairs,omitempty"`
	// Pending are the calls waiting for an approval answer, so a client that attaches after
	// the request (watch, troupe approvals) still sees them.
	Pending []*ApprovalRequestedData `json:"pending,omitempty"`
	// Instructions are the instruction files in force (the stable prefix's, then the nested
	// ones handed out so far); InstructionBytes is their text against InstructionCap.
	Instructions     []InstructionFile `json:"instructions,omitempty"`
	InstructionBytes int               `json:"instruction_bytes,omitempty"`
	InstructionCap   int               `json:"instruction_cap,omitempty"`
	// Skills are the names of the skills the session may load; Warnings say, in plain words,
	// what went wrong at its start without stopping it (a broken SKILL.md skipped). A client
	// shows the warnings once.
	Skills   []string `json:"skills,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// InstructionFile is one instruction file in force, as /status reports it.
type InstructionFile struct {
	Path   string `json:"path"`
	Bytes  int    `json:"bytes"`            // the file's size
	Cut    bool   `json:"cut,omitempty"`    // cut to the caps
	Nested bool   `json:"nested,omitempty"` // handed out when a file under its directory was touched
}

// ErrorReply answers any request that failed.
type ErrorReply struct {
	Error string `json:"error"`
}
