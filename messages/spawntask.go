package messages

import "time"

// A spawn is a message wherever it runs (docs/ARCHITECTURE.md "Subagents on workers"): the
// parent builds a SpawnTask from a SpawnAgent request; a local child starts from it in the
// parent's process, a remote one is published to the project's task queue (TasksSubject) and a
// worker runs it. Either way the child reports an AgentResult. A remote child's liveness is its
// lease: the worker renews a TaskLease on its results subject while the child runs.

// ObjectRef names an object in the project's JetStream object store: a large inherited context,
// a git bundle, a patch. Digest is the store's digest of the content ("SHA-256=…"), so a reader
// can tell it fetched what the writer put.
type ObjectRef struct {
	Bucket string `json:"bucket"`
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	Digest string `json:"digest,omitempty"`
}

// Blob is a payload that travels inline when small and by reference when large: exactly one of
// Inline and Ref is set (neither: empty).
type Blob struct {
	Inline []byte     `json:"inline,omitempty"`
	Ref    *ObjectRef `json:"ref,omitempty"`
}

// Empty reports whether the blob carries nothing.
func (b *Blob) Empty() bool { return b == nil || (len(b.Inline) == 0 && b.Ref == nil) }

// TaskRepo is the code a remote child works on: the commit to start from, fetched from the
// shared remote URL or, when there is none, from a git bundle in the object store; then the
// parent's uncommitted changes applied as a patch (git diff --binary against Base).
type TaskRepo struct {
	URL    string     `json:"url,omitempty"`
	Base   string     `json:"base,omitempty"`
	Bundle *ObjectRef `json:"bundle,omitempty"`
	Patch  *Blob      `json:"patch,omitempty"`
}

// SpawnTask is one child's start, as it crosses the bus. ID is the task id and the child's
// session id (Start.ID). Project is the namespace <ns>; ParentNode and Parent say who
// dispatched it and whose inbox the result goes to. Start is what a local child would start
// with, minus Env (a worker fills the environment from its own process). Inherited is the
// context slice of a fork or partial child: the JSON of its messages. Writes marks a child that
// may change the workspace: it returns a branch. Attempt is the delivery count, filled by the
// worker (1 on the first delivery); a later attempt resumes from the child's mirrored state.
type SpawnTask struct {
	ID         string       `json:"id"`
	Project    string       `json:"project"`
	ParentNode string       `json:"parent_node"`
	Parent     string       `json:"parent"`
	Start      StartSession `json:"start"`
	Inherited  *Blob        `json:"inherited,omitempty"`
	Repo       TaskRepo     `json:"repo"`
	Deadline   time.Time    `json:"deadline,omitempty"`
	Writes     bool         `json:"writes,omitempty"`
	Attempt    int          `json:"attempt,omitempty"`
	// Steer is the child session's steer key (docs/WORKERS.md "Who may do what"): the worker
	// lets a client steer the child (answer its approvals) only with a token made from it.
	Steer string `json:"steer,omitempty"`
}

// TaskLease is a worker's heartbeat for a task it runs, on its results subject: the task is
// alive on Worker until Until. A dispatching Node that hears no renewal past Until, and no
// redelivery, fails the child (docs/ARCHITECTURE.md "Subagents on workers").
type TaskLease struct {
	Task    string    `json:"task"`
	Worker  string    `json:"worker"`
	Until   time.Time `json:"until"`
	Attempt int       `json:"attempt"`
}

// DeadTask is what the dead-letter subject (DeadTasksSubject) carries for a task that
// exhausted its deliveries: the dispatching Node fails the child with Reason.
type DeadTask struct {
	Task       string `json:"task"`
	Parent     string `json:"parent,omitempty"`
	ParentNode string `json:"parent_node,omitempty"`
	Deliveries int    `json:"deliveries"`
	Reason     string `json:"reason,omitempty"`
}
