package actors

import (
	"github.com/troupe-dev/troupe/internal/memory"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// The slash commands live beside the session, not on it. The read-only ones (/help /status
// /tools /skills /cost /session /agents /permissions) are plain functions of a commandSnapshot;
// the others ask the session for the few things a command may do through commandHost. The
// session implements the host with sessionHost (session_host.go), bound to the input at hand.

// commandHost is what a slash command may ask of its session.
type commandHost interface {
	// Snapshot copies the session's state as the commands show it.
	Snapshot() commandSnapshot
	// Idle reports whether no turn runs: a command that answers later checks it again before
	// it changes anything, since a turn may have started meanwhile.
	Idle() bool

	// Later runs work off the actor (disk, git, the bus). The function work returns runs back
	// on the actor and its text answers the command; late answers instead when work overruns
	// timeout. work must touch nothing of the session: it gets values, never the host's state.
	Later(timeout time.Duration, work func() func() string, late func(error) string)
	// LaterInput runs work off the actor like Later; work returns either text, which goes to
	// the model as the user's turn (if the session is still idle), or out, the command's
	// answer (an MCP prompt command, commands_mcp_prompt.go).
	LaterInput(timeout time.Duration, work func() (text, out string), late func(error) string)
	// Delegate sends req to the session as spawn_agent would and answers the command with what
	// answer makes of the reply.
	Delegate(req *messages.SpawnAgent, timeout time.Duration, answer func(reply any, err error) string)

	// Goal applies /goal's argument to the goal and says what happened.
	Goal(arg string) string
	// Compact starts a compaction between turns and says so.
	Compact(focus string) string
	// SwitchMode hands a new permission mode to the executor and records who switched.
	SwitchMode(mode messages.Mode, by string) error
	// ResetContext appends the boundary of a fresh context (the log keeps everything); changed
	// is false when there is nothing to reset.
	ResetContext(keepGoal bool) (b projection.Boundary, changed bool, err error)
	// UseSkill records a loaded skill for the next turn and tells the executor of its bound.
	UseSkill(sk *tools.LoadedSkill) error
	// SetupFor is the setup builder for the session's start with model and prompt mode
	// switched, safe to call off the actor; nil when the session cannot switch.
	SetupFor(model, promptMode string) func() (*SessionSetup, error)
	// PromptModes lists the prompt modes, safe to call off the actor; nil when there is no list.
	PromptModes() func() ([]config.PromptMode, error)
	// ApplySetup swaps in a setup built by SetupFor; an error leaves everything as it was.
	ApplySetup(setup *SessionSetup, model, promptMode, by string) error
	// Emit publishes one event of the session.
	Emit(p messages.Payload)

	// AuditSnapshot copies what /audit judges of the session's own state.
	AuditSnapshot() *sessionAudit
	// Probes is what /audit, /doctor and /cost read off the actor: the store, the bus.
	Probes() auditProbes
}

// commandSnapshot is the session as the read-only commands show it: a value, copied on the
// actor, that the command functions read without touching the session.
type commandSnapshot struct {
	Phase  messages.Phase
	Status *messages.StatusReply // /status (its goal is a copy)
	// Session is what /session shows; Usage is the session's own tokens, for /cost.
	Session sessionFacts
	Usage   store.SessionMeta
	// Agents are the session's children, in spawn order, as of the snapshot.
	Agents      []agentRow
	Permissions permissionFacts
	// Tools are the tools the model is offered; Narrowed the Node's tools the session lacks.
	Tools    []llm.ToolSpec
	Narrowed []NarrowedTool
	// Skills are the skills the session started with; ActiveSkill the one loaded last ("" none);
	// SkillProblems the broken SKILL.md files that were skipped, in plain words.
	Skills        []config.Skill
	SkillProblems []string
	ActiveSkill   string
	Model         modelFacts
	// ProjectRoot is the user's checkout, where /worktree works.
	ProjectRoot string
	// Sandbox is the node's confinement of commands (nil: none); a fixed value read at start.
	Sandbox tools.Sandbox
	// MCP asks the MCP servers' state, off the actor (nil: none configured).
	MCP func() []*messages.MCPServerStatus
	// MCPPrompts finds and fills the MCP servers' prompts, off the actor (nil: none configured).
	MCPPrompts mcpPrompter
	// Hooks are the project's hooks, skipped ones included (/hooks).
	Hooks []hooks.Hook
	// Memory is the session's cross-session memory, used off the actor (nil: none).
	Memory *memory.Keeper
}

// permissionFacts is what /permissions shows besides the sandbox.
type permissionFacts struct {
	Mode             messages.Mode
	Allow, Ask, Deny []string
	// Session is the session allowlist: what "allow for the session" answers allowed so far.
	Session []string
}

// modelFacts is what /model and /prompt show and start from.
type modelFacts struct {
	// Model is the provider/model stamp; Name what the provider is asked for; Wire the model
	// as the session was started (or switched) with, which a switch qualifies against.
	Model, Name, Wire string
	BaseURL           string
	Window            int
	PromptMode        string
	// CanSwitch: /model may switch; CanSwitchPrompt: /prompt may (it needs the mode list too).
	CanSwitch, CanSwitchPrompt bool
	// Known are the models of the configured providers (llm.KnownModels), for /model's list.
	Known []string
}
