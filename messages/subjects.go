package messages

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Subjects. <ns> is the project id (configured, or derived from the git remote and root
// commit), so many projects can share one NATS cluster and checkouts of one project meet; every subject of a project starts with "troupe.<ns>.". Each subject has a publish
// form (a function that fills it in) and, where it is subscribed with wildcards, a subscribe form.
const (
	// troupe.<ns>.evt.<session>.<type> (EventSubject): events, fan-out. Monitors subscribe
	// troupe.<ns>.evt.>
	sessionEventsSubjFmt = "troupe.%s.evt.%s.>"
	projectEventsSubjFmt = "troupe.%s.evt.>"
	// troupe.<ns>.inbox.<actor>: point-to-point actor messages (child results land here).
	inboxSubjectFmt = "troupe.%s.inbox.%s"
	// troupe.<ns>.ctl.<session>: request/reply control: input, cancel, status.
	controlSubjectFmt = "troupe.%s.ctl.%s"
	// troupe.<ns>.node.<node>: node presence and request/reply for store queries.
	nodeSubjectFmt = "troupe.%s.node.%s"
	// troupe.<ns>.node.<node>.q: the Node's read-only queries (list, log, lessons, repair
	// stats), the only node subject a watcher's credential may publish to.
	nodeQuerySubjectFmt = "troupe.%s.node.%s.q"
	// troupe.<ns>.tasks: spawn requests for remote workers (SpawnTask), the subject of the
	// project's JetStream work-queue stream. Only a Node publishes here; workers consume.
	tasksSubjectFmt = "troupe.%s.tasks"
	// troupe.<ns>.dead: spawn tasks that exhausted their deliveries (fed from the server's
	// max-deliveries advisory); the dispatching Node fails the child with a clear result.
	deadTasksSubjectFmt = "troupe.%s.dead"
	// troupe.<ns>.wrk.<worker>.inbox.<addr>: the inboxes of the sessions a worker runs. The
	// worker publishes here (its own actors' traffic); the dispatching Node publishes cancels,
	// notes and approval decisions for its remote children.
	workerInboxSubjectFmt = "troupe.%s.wrk.%s.inbox.%s"
	workerInboxesSubjFmt  = "troupe.%s.wrk.%s.inbox.>"
	// troupe.<ns>.wrk.<worker>.results: what a worker sends back to dispatching Nodes: its
	// children's projected results and lease heartbeats. A Node accepts only tasks it dispatched.
	workerResultsSubjectFmt = "troupe.%s.wrk.%s.results"
	allWorkerResultsSubjFmt = "troupe.%s.wrk.*.results"
)

// EventSubject is where a session publishes an event of type t.
func EventSubject(ns, session string, t EventType) string {
	return "troupe." + ns + ".evt." + session + "." + string(t) // every event: no Sprintf
}

// SessionEventsSubject subscribes to every event of one session.
func SessionEventsSubject(ns, session string) string {
	return fmt.Sprintf(sessionEventsSubjFmt, ns, session)
}

// ProjectEventsSubject subscribes to every event of every session of a project.
func ProjectEventsSubject(ns string) string { return fmt.Sprintf(projectEventsSubjFmt, ns) }

// InboxSubject is the mailbox of the actor at address addr (e.g. a session id, or
// "<session>.tools" for its tool executor).
func InboxSubject(ns, addr string) string { return fmt.Sprintf(inboxSubjectFmt, ns, addr) }

// ControlSubject takes request/reply control messages for a session.
func ControlSubject(ns, session string) string { return fmt.Sprintf(controlSubjectFmt, ns, session) }

// NodeSubject takes request/reply queries for a Node.
func NodeSubject(ns, node string) string { return fmt.Sprintf(nodeSubjectFmt, ns, node) }

// NodeQuerySubject takes a Node's read-only queries (what a watcher may ask).
func NodeQuerySubject(ns, node string) string { return fmt.Sprintf(nodeQuerySubjectFmt, ns, node) }

// TasksSubject is the work queue of spawn requests for remote workers.
func TasksSubject(ns string) string { return fmt.Sprintf(tasksSubjectFmt, ns) }

// DeadTasksSubject is where a spawn task goes when no worker could finish it.
func DeadTasksSubject(ns string) string { return fmt.Sprintf(deadTasksSubjectFmt, ns) }

// WorkerInboxSubject is the inbox of the actor at addr on worker w.
func WorkerInboxSubject(ns, w, addr string) string {
	return fmt.Sprintf(workerInboxSubjectFmt, ns, w, addr)
}

// WorkerInboxesSubject subscribes to every inbox on worker w.
func WorkerInboxesSubject(ns, w string) string { return fmt.Sprintf(workerInboxesSubjFmt, ns, w) }

// WorkerResultsSubject is where worker w publishes results and leases for dispatching Nodes.
func WorkerResultsSubject(ns, w string) string { return fmt.Sprintf(workerResultsSubjectFmt, ns, w) }

// AllWorkerResultsSubject subscribes to every worker's results subject of a project.
func AllWorkerResultsSubject(ns string) string { return fmt.Sprintf(allWorkerResultsSubjFmt, ns) }

// Namespace is the short hash of a project root: the project id (<ns>) of a checkout outside
// git, where no remote or root commit names the project (actors.ProjectID).
func Namespace(projectRoot string) string {
	sum := sha256.Sum256([]byte(projectRoot))
	return hex.EncodeToString(sum[:])[:10]
}

// ValidToken reports whether s can stand as one subject token (a session id, an address part):
// non-empty, no dots, wildcards or white space.
func ValidToken(s string) bool {
	return s != "" && !strings.ContainsAny(s, ".*> \t\r\n")
}

// Describe names what a subject addresses in words a user understands ("session X", "the
// troupe node"), so errors never show bus subjects.
func Describe(subject string) string {
	parts := strings.SplitN(subject, ".", 4)
	if len(parts) < 3 || parts[0] != "troupe" {
		return "troupe"
	}
	switch {
	case parts[2] == "ctl" && len(parts) == 4:
		return "session " + parts[3]
	case parts[2] == "node":
		return "the troupe node"
	case parts[2] == "inbox" && len(parts) == 4:
		return "agent " + parts[3]
	case parts[2] == "tasks":
		return "the task queue"
	case parts[2] == "dead":
		return "the dead-task queue"
	case parts[2] == "wrk" && len(parts) == 4:
		return "worker " + strings.SplitN(parts[3], ".", 2)[0]
	}
	return "troupe"
}
