package messages

// Subagent messages (docs/DESIGN-NOTES.md "Subagents"). A parent session spawns a child session
// under itself; the child's outcome reaches the parent's inbox subject as an AgentResult (the
// projected result: a summary, evidence, files changed, usage — never the child's raw transcript).
// The agent tools (spawn_agent, wait_agent, send_agent, cancel_agent, list_agents) reach their
// session with the requests below.

// ContextMode is what of the parent's history a child receives.
type ContextMode string

// Context modes of a child.
const (
	ContextFresh   ContextMode = "fresh"   // only the task message: the parent must brief it fully
	ContextFork    ContextMode = "fork"    // the parent's projected history, then the task as a directive
	ContextPartial ContextMode = "partial" // the parent's last fork_turns turns, cut on a paired boundary
)

// AgentState is a child's state or outcome, as AgentInfo.State and AgentResult.Status.
type AgentState string

// Agent states and outcomes.
const (
	AgentQueued      AgentState = "queued"  // waiting for a running slot (the cap on siblings)
	AgentRunning     AgentState = "running" // started
	AgentDone        AgentState = "done"
	AgentFailed      AgentState = "failed"
	AgentCancelled   AgentState = "cancelled"
	AgentBudget      AgentState = "budget-exhausted"
	AgentInterrupted AgentState = "interrupted" // the parent stopped (or its node died) before the child ended
)

// AgentFinal reports whether an agent state is an outcome.
func AgentFinal(state AgentState) bool {
	switch state {
	case AgentDone, AgentFailed, AgentCancelled, AgentBudget, AgentInterrupted:
		return true
	}
	return false
}

// SpawnAgent asks a session to start a child (the spawn_agent tool). The reply is a
// SpawnAccepted or an ErrorReply that says what to fix.
type SpawnAgent struct {
	TaskName   string      `json:"task_name"`
	AgentType  string      `json:"agent_type"`
	Message    string      `json:"message"`
	Context    ContextMode `json:"context,omitempty"` // fresh (default), fork, partial
	ForkTurns  int         `json:"fork_turns,omitempty"`
	Background bool        `json:"background,omitempty"`
	Worktree   bool        `json:"worktree,omitempty"`
}

// SpawnAccepted answers SpawnAgent: the child's handle (root/<task_name>, nested root/a/b) and
// whether it runs now or waits for a slot. Notes are things the caller should know (tools the
// role asked for that the parent lacks, a renamed task).
type SpawnAccepted struct {
	Handle  string     `json:"handle"`
	Session string     `json:"session"`
	State   AgentState `json:"state"`
	Tools   []string   `json:"tools"`
	Model   string     `json:"model"`
	Notes   []string   `json:"notes,omitempty"`
}

// WaitAgents asks for the results of children; the reply (WaitReply) comes when all of them
// have ended or after TimeoutS seconds, whichever is first.
type WaitAgents struct {
	Handles  []string `json:"handles"`
	TimeoutS int      `json:"timeout_s,omitempty"`
}

// WaitReply answers WaitAgents: the results that are in, and the handles still running.
type WaitReply struct {
	Results []*AgentResult `json:"results"`
	Pending []string       `json:"pending,omitempty"`
}

// SendAgent passes a message to a running child (it is queued as the child's next input).
type SendAgent struct {
	Handle  string `json:"handle"`
	Message string `json:"message"`
}

// CancelAgent stops a child and, through it, every agent under it.
type CancelAgent struct {
	Handle string `json:"handle"`
	Reason string `json:"reason,omitempty"`
}

// AgentAck answers SendAgent and CancelAgent.
type AgentAck struct {
	Handle string     `json:"handle"`
	State  AgentState `json:"state"`
	Note   string     `json:"note,omitempty"`
}

// ListAgents asks a session for its children; the reply is an AgentList.
type ListAgents struct{}

// AgentList answers ListAgents.
type AgentList struct {
	Agents []*AgentInfo `json:"agents"`
}

// AgentInfo is one child as its parent knows it.
type AgentInfo struct {
	Handle     string     `json:"handle"`
	Session    string     `json:"session"`
	Role       string     `json:"role"`
	State      AgentState `json:"state"`
	Background bool       `json:"background,omitempty"`
	Worktree   string     `json:"worktree,omitempty"`
	Worker     string     `json:"worker,omitempty"` // empty when local
	Turns      int        `json:"turns"`
	ElapsedMS  int64      `json:"elapsed_ms"`
}

// Evidence is one piece of support for a child's result: a command it ran and how it ended, or
// a file:line reference from its answer.
type Evidence struct {
	Command string `json:"command,omitempty"`
	Outcome string `json:"outcome,omitempty"` // "ok", or the first line of the error
	Ref     string `json:"ref,omitempty"`     // path:line
}

// AgentUsage is what a child spent.
type AgentUsage struct {
	Turns        int   `json:"turns"`
	InputTokens  int   `json:"input_tokens"`
	OutputTokens int   `json:"output_tokens"`
	DurationMS   int64 `json:"duration_ms"`
}

// AgentResult is a child's projected result. The child sends it to its parent's inbox when it
// ends; the parent stores it (s/<parent>/agents/<task>), emits agent.finished with it, and the
// model sees it as a projection — never the child's transcript (troupe log shows that).
type AgentResult struct {
	Handle  string     `json:"handle"`
	Session string     `json:"session"`
	Role    string     `json:"role"`
	Status  AgentState `json:"status"`
	Summary string     `json:"summary"`
	// Verdict is "pass" or "fail" for roles that must give one (verifier), else empty.
	Verdict      string     `json:"verdict,omitempty"`
	Evidence     []Evidence `json:"evidence,omitempty"`
	FilesChanged []string   `json:"files_changed,omitempty"`
	Usage        AgentUsage `json:"usage"`
	// Branch and DiffStat describe a child that ran in its own worktree. A writing child that
	// ran on a worker also returns its branch as a git bundle in the object store (Bundle),
	// unless it pushed it to the shared remote.
	Branch   string     `json:"branch,omitempty"`
	DiffStat string     `json:"diff_stat,omitempty"`
	Bundle   *ObjectRef `json:"bundle,omitempty"`
	Error    string     `json:"error,omitempty"`
	// Worker names the worker the child ran on; empty for a child of the parent's own Node.
	Worker string `json:"worker,omitempty"`
	// Full names the whole result in the project's object store when it was too large for the
	// bus (a worker's child with a long answer): the fields here are then a preview, and the
	// dispatching Node puts the whole back before the parent sees it.
	Full *ObjectRef `json:"full,omitempty"`
	// Delivered is set by the parent once its model has seen the result.
	Delivered bool `json:"delivered,omitempty"`
}

// AgentSpawnedData is the payload of agent.spawned, emitted by the parent.
type AgentSpawnedData struct {
	Handle     string      `json:"handle"`
	Session    string      `json:"session"` // the child's session id
	Role       string      `json:"role"`
	Context    ContextMode `json:"context"`
	Model      string      `json:"model"`
	State      AgentState  `json:"state"` // queued or running
	Background bool        `json:"background,omitempty"`
	Worktree   string      `json:"worktree,omitempty"`
	Tools      []string    `json:"tools,omitempty"`
	Task       string      `json:"task"` // a bounded preview of the message
	// Worker names the worker the child was sent to; empty when it runs on the parent's Node.
	Worker string `json:"worker,omitempty"`
}
