package actors

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/messages"
)

// The dispatcher's book (docs/ARCHITECTURE.md "Subagents on workers"): every task this Node
// published to the task queue, who dispatched it, which worker holds it and until when. A
// remote child's liveness is its lease; the table decides when a child is gone for good and
// makes sure each child's result reaches its parent exactly once. It is a plain value owned by
// the dispatcher actor.

// dispatchTable is the tasks this Node dispatched.
type dispatchTable struct {
	tasks map[string]*dispatched
	// grace is how long past its lease a task may stay silent (while the queue redelivers it
	// to another worker) before its child is failed.
	grace time.Duration
	// lastLease is when any worker last renewed a lease: a worker heard from recently is
	// attached even if it is too busy to wait on the queue.
	lastLease time.Time
}

// dispatched is one task as the dispatching Node knows it.
type dispatched struct {
	task, parent, handle, role string
	worker                     string    // "" until a worker leases it
	attempt                    int       // the delivery the last lease was for
	until                      time.Time // the lease; zero until leased
	deadline                   time.Time // the task's own deadline; zero: none
	base                       string    // the commit its code was sent at
	sent                       time.Time
	done                       bool  // its result went to the parent (or was made for it)
	held                       []any // messages for the child that wait for a worker to take it
}

func newDispatchTable(grace time.Duration) *dispatchTable {
	return &dispatchTable{tasks: map[string]*dispatched{}, grace: grace}
}

// add records a task this Node is about to publish (a re-added id keeps its record).
func (t *dispatchTable) add(task *messages.SpawnTask, now time.Time) {
	if t.tasks[task.ID] != nil {
		return
	}
	t.tasks[task.ID] = &dispatched{task: task.ID, parent: task.Parent, handle: task.Start.Agent, role: task.Start.Role,
		deadline: task.Deadline, sent: now}
}

// ended reports whether a task's child has ended (its result went to the parent).
func (t *dispatchTable) ended(task string) bool {
	d := t.tasks[task]
	return d != nil && d.done
}

// drop forgets a task that could not be queued.
func (t *dispatchTable) drop(task string) { delete(t.tasks, task) }

// adopt records a task a resumed parent dispatched in an earlier run of this Node: its lease
// clock starts now, so a task that is gone fails after one grace.
func (t *dispatchTable) adopt(task, parent, handle, role, worker string, now time.Time) {
	if t.tasks[task] != nil {
		return
	}
	t.tasks[task] = &dispatched{task: task, parent: parent, handle: handle, role: role, worker: worker, sent: now,
		until: now}
}

// reconciled takes what the bus holds of an adopted task (dispatch_restore.go): its kept result
// goes to the parent (once: a result heard live first wins), its dead letter fails it, a task
// still queued waits for a worker with no lease clock, one a worker took keeps the clock adopt
// started (its lease resumes, or it fails after one grace), and a task the bus holds nothing of
// ended while nobody listened: it is interrupted, as a local child of a stopped parent is.
func (t *dispatchTable) reconciled(task string, on taskOnBus, now time.Time) (parent string, r *messages.AgentResult) {
	d := t.tasks[task]
	if d == nil || d.done {
		return "", nil
	}
	switch {
	case on.result != nil && on.result.Session == task:
		d.done = true
		if on.result.Worker != "" {
			d.worker = on.result.Worker
		}
		return d.parent, on.result
	case on.dead != nil:
		return t.dead(on.dead)
	case on.queue == taskqueue.Queued:
		d.until = time.Time{}
		return "", nil
	case on.queue == taskqueue.Delivered:
		d.until = now
		return "", nil
	}
	r = t.fail(d, "its parent's node stopped while it ran, and the bus holds no trace of it (no result, not queued, no dead letter); its log on the worker is kept")
	r.Status = messages.AgentInterrupted
	return d.parent, r
}

// leaseStep is what a lease changed: placed is set when a worker took the task (first lease,
// or a redelivery to another worker or attempt), with the held messages to send to it now;
// stale is set for a lease of a task whose child has ended (the worker should stop it).
type leaseStep struct {
	placed *dispatched
	held   []any
	stale  bool
}

// lease takes a worker's heartbeat. Tasks this Node did not dispatch are ignored.
func (t *dispatchTable) lease(l *messages.TaskLease, now time.Time) leaseStep {
	t.lastLease = now
	d := t.tasks[l.Task]
	if d == nil {
		return leaseStep{}
	}
	if d.done {
		return leaseStep{stale: true}
	}
	var st leaseStep
	if d.worker != l.Worker || d.attempt != l.Attempt {
		d.worker, d.attempt = l.Worker, l.Attempt
		st.placed, st.held, d.held = d, d.held, nil
	}
	if l.Until.After(d.until) {
		d.until = l.Until
	}
	return st
}

// result takes a child's result from worker: it goes to the parent only for a task this Node
// dispatched and has not finished (exactly once), stamped with the worker. ok false: drop it.
func (t *dispatchTable) result(worker string, r *messages.AgentResult) (parent, base string, ok bool) {
	d := t.tasks[r.Session]
	if d == nil || d.done {
		return "", "", false
	}
	d.done = true
	r.Worker = worker
	if d.worker == "" {
		d.worker = worker
	}
	return d.parent, d.base, true
}

// sentWith records the commit a queued task's code was sent at.
func (t *dispatchTable) sentWith(task, base string) {
	if d := t.tasks[task]; d != nil {
		d.base = base
	}
}

// dead takes a dead letter: the task exhausted its deliveries; its child fails.
func (t *dispatchTable) dead(dt *messages.DeadTask) (parent string, r *messages.AgentResult) {
	d := t.tasks[dt.Task]
	if d == nil || d.done {
		return "", nil
	}
	why := dt.Reason
	if why == "" {
		why = fmt.Sprintf("no worker finished it in %d deliveries", dt.Deliveries)
	}
	return d.parent, t.fail(d, "the task was given up: "+why)
}

// fail ends d with a failed result made for it.
func (t *dispatchTable) fail(d *dispatched, why string) *messages.AgentResult {
	d.done = true
	return &messages.AgentResult{Handle: d.handle, Session: d.task, Role: d.role, Status: messages.AgentFailed,
		Worker: d.worker, Error: why}
}

// failed is a result made by the dispatcher, for the parent session.
type failed struct {
	parent string
	result *messages.AgentResult
}

// lapsed fails the children whose lease ran out more than grace ago with no renewal (the queue
// did not redeliver them, or no worker could take them), and the ones past their deadline.
func (t *dispatchTable) lapsed(now time.Time) []failed {
	var out []failed
	for _, d := range t.tasks {
		switch {
		case d.done:
		case !d.until.IsZero() && now.Sub(d.until) > t.grace:
			out = append(out, failed{d.parent, t.fail(d, fmt.Sprintf("its worker %s stopped renewing its lease (last valid until %s)", orUnknown(d.worker), d.until.UTC().Format(time.RFC3339)))})
		case !d.deadline.IsZero() && now.After(d.deadline):
			out = append(out, failed{d.parent, t.fail(d, "it passed its deadline before it finished")})
		}
	}
	slices.SortFunc(out, func(a, b failed) int { return strings.Compare(a.result.Session, b.result.Session) })
	return out
}

// route says where a message for a child goes: to its worker's inbox (worker set), held until
// a worker takes the task (held), or nowhere (the task is not ours or has ended).
func (t *dispatchTable) route(task string, msg any) (worker string, held bool) {
	d := t.tasks[task]
	switch {
	case d == nil || d.done:
		return "", false
	case d.worker == "":
		d.held = append(d.held, msg)
		return "", true
	}
	return d.worker, false
}

// cancelQueued ends a task no worker has taken yet with a cancelled result (the parent does not
// wait for a worker to start it only to stop it); a lease that comes later is stale and the
// worker is told to stop.
func (t *dispatchTable) cancelQueued(task, reason string) (parent string, r *messages.AgentResult) {
	d := t.tasks[task]
	if d == nil || d.done || d.worker != "" {
		return "", nil
	}
	r = t.fail(d, reason+" (before a worker took it)")
	r.Status = messages.AgentCancelled
	return d.parent, r
}

// attached reports whether a worker renewed a lease within horizon.
func (t *dispatchTable) attached(now time.Time, horizon time.Duration) bool {
	return !t.lastLease.IsZero() && now.Sub(t.lastLease) <= horizon
}

// forget drops the finished tasks, so the table holds only what may still be heard of.
func (t *dispatchTable) forget(now time.Time, keep time.Duration) {
	for id, d := range t.tasks {
		if d.done && now.Sub(d.sent) > keep {
			delete(t.tasks, id)
		}
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}
