package messages

// troupe loop runs in the Node as an orchestrator actor: the CLI sends StartLoop on the Node
// subject and follows the loop's events (under the loop's id, agent AgentLoop) and those of its
// iterations (Parent = the loop's id). A Cancel on the loop's control subject stops it: the
// running iteration is cancelled and the loop finishes interrupted.

// AgentLoop is the agent name (and the session.started role) of a loop's own events.
const AgentLoop = "loop"

// StartLoop asks a Node to run troupe loop: iterations of one headless session each, built
// from Iteration (the template the CLI resolved: model, mode, check, ...), until one completes
// the goal or MaxIterations ran. It is answered with LoopAccepted or an ErrorReply.
type StartLoop struct {
	ID            string `json:"id"`
	Objective     string `json:"objective"`
	Plan          string `json:"plan"` // the plan file, relative to the project root
	MaxIterations int    `json:"max_iterations"`
	// Iteration is the template of every iteration's StartSession; the loop fills in ID,
	// Agent, Parent, Task and LoopStep.
	Iteration StartSession `json:"iteration"`
}

// LoopAccepted answers StartLoop: the loop runs and has announced itself with session.started.
type LoopAccepted struct {
	ID string `json:"id"`
	// Steer lets the client that started the loop steer it and its iterations (docs/WORKERS.md
	// "Who may do what"); "" when the Node does not check.
	Steer string `json:"steer,omitempty"`
}
