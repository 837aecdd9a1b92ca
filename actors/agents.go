package actors

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// AgentLimits bound the subagents of a session (docs/DESIGN-NOTES.md "Subagents"). Zero fields take the defaults;
// MaxDepth NoSubagents forbids subagents ([agents] max_depth = 0 in troupe.toml).
type AgentLimits struct {
	MaxDepth   int           // levels under the root; a child at this depth cannot spawn (default 3)
	MaxRunning int           // children of one parent running at once; more spawns queue (default 8)
	MaxTurns   int           // a child's turn budget unless its role sets one (default 40)
	MaxTokens  int           // a child's token budget, input plus output (default 2,000,000)
	MaxWall    time.Duration // a child's wall-time budget (default 30 minutes)
}

// Default agent limits.
const (
	defaultMaxDepth       = 3
	defaultMaxRunning     = 8
	defaultChildMaxTurns  = 40
	defaultChildMaxTokens = 2_000_000
	defaultChildMaxWall   = 30 * time.Minute
)

// NoSubagents as AgentLimits.MaxDepth offers no agent tools at all.
const NoSubagents = -1

func (l AgentLimits) withDefaults() AgentLimits {
	if l.MaxDepth == 0 {
		l.MaxDepth = defaultMaxDepth
	}
	if l.MaxRunning <= 0 {
		l.MaxRunning = defaultMaxRunning
	}
	if l.MaxTurns <= 0 {
		l.MaxTurns = defaultChildMaxTurns
	}
	if l.MaxTokens <= 0 {
		l.MaxTokens = defaultChildMaxTokens
	}
	if l.MaxWall <= 0 {
		l.MaxWall = defaultChildMaxWall
	}
	return l
}

// Delegation is what a session needs to run subagents: how to build a child's dependencies
// (the Node's session factory), where roles come from, the project root (worktrees live under
// it) and the limits. A session without one cannot delegate.
type Delegation struct {
	NewChild    SessionFactory
	Roles       func() ([]config.Role, error)
	ProjectRoot string
	Limits      AgentLimits
	// Dispatcher is the Node's dispatcher (dispatch.go), which sends children to workers; nil:
	// every child runs on this Node. Node is this Node's id, for the tasks it dispatches.
	Dispatcher *actor.PID
	Node       string
}

// childAgent is one subagent as its parent session knows it. Only the parent's actor touches it.
type childAgent struct {
	rec agentRecord
	// task is the child's SpawnTask; start is its Start (nil for a child restored from the
	// store, which is not started again).
	task      *messages.SpawnTask
	start     *messages.StartSession
	inherited []llm.Message
	wt        *worktree.Worktree
	pid       *actor.PID
	began     time.Time
	building  bool // its setup is being built off the parent's actor (startChild): no actor yet
	// remote marks a child sent to the workers (its record says so too); place is what its
	// placement was decided from.
	remote   bool
	place    placeInput
	roleMode string // the role's mode, which a parent's mode change never loosens
	// wantsWorktree marks a child asked for with worktree: wherever it runs, it works in its
	// own worktree (a worker makes a remote one's; the session a local one's).
	wantsWorktree bool
}

// agentRecord is what the parent stores of a child at s/<parent>/agents/<task>, so a resumed
// parent knows its children and delivers the results that came in.
type agentRecord struct {
	Task       string                `json:"task"`
	Handle     string                `json:"handle"`
	Session    string                `json:"session"`
	Role       string                `json:"role"`
	State      messages.AgentState   `json:"state"`
	Background bool                  `json:"background,omitempty"`
	Worktree   string                `json:"worktree,omitempty"`
	Remote     bool                  `json:"remote,omitempty"` // sent to the workers' task queue
	Worker     string                `json:"worker,omitempty"` // the worker that took it
	Spawned    time.Time             `json:"spawned"`
	Result     *messages.AgentResult `json:"result,omitempty"`
}

// agentWaiter is a wait_agent call waiting for children; the session answers it when they have
// all ended or when its timer fires.
type agentWaiter struct {
	id      int
	replyTo *actor.PID
	handles []string
	timer   *time.Timer
}

// Internal messages of the subagent machinery.
type (
	// childGone follows a child's Terminated through the mailbox: if the child's result has
	// not come before it, the child never sent one, and the result is written for it.
	childGone struct{ task string }
	// waitExpired ends a wait_agent call that timed out.
	waitExpired struct{ id int }
	// wallBudgetExpired ends a child whose wall-time budget ran out.
	wallBudgetExpired struct{}
)
