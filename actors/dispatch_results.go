package actors

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// The dispatcher's way back (dispatch.go is the way out): what the workers report on their
// results subjects, messages routed to a remote child, and a child's result delivered to its
// parent session.

// onWorker takes a lease or a result from a worker's results subject.
func (d *dispatcher) onWorker(ctx actor.Context, m *fromWorker) {
	switch msg := m.msg.(type) {
	case *messages.TaskLease:
		if msg.Worker != m.worker {
			return // a lease must come from the worker that holds the task
		}
		st := d.table.lease(msg, time.Now())
		switch {
		case st.stale:
			d.toWorker(m.worker, msg.Task, &messages.Cancel{Reason: "its parent no longer waits for it"})
		case st.placed != nil:
			if p := d.parents[msg.Task]; p != nil {
				ctx.Send(p, &childPlaced{task: msg.Task, worker: m.worker, attempt: msg.Attempt})
			}
			for _, h := range st.held {
				d.toWorker(m.worker, msg.Task, h)
			}
		}
	case *messages.AgentResult:
		parent, base, ok := d.table.result(m.worker, msg)
		if !ok {
			return
		}
		d.bringBack(ctx, parent, base, msg)
	}
}

// bringBack delivers a worker's result to its parent, after bringing in what came by
// reference: the whole result when it was too large for the bus, a writing child's branch (sent
// at commit base) into the parent's checkout (TaskQueue.Collect).
func (d *dispatcher) bringBack(ctx actor.Context, parent, base string, msg *messages.AgentResult) {
	if (msg.Branch == "" && msg.Full == nil) || d.queue == nil {
		d.deliver(ctx, parent, msg)
		return
	}
	type collected struct {
		r   *messages.AgentResult
		err error
	}
	q := d.queue
	offActor(ctx, importTimeout, func() collected {
		c, cancel := context.WithTimeout(context.Background(), importTimeout)
		defer cancel()
		r, err := q.Collect(c, base, msg)
		return collected{r, err}
	}, func(got collected, timeout error) {
		r := got.r
		if r == nil {
			r = msg
		}
		if err := errors.Join(got.err, timeout); err != nil {
			r.Error = strings.TrimPrefix(r.Error+"; "+err.Error(), "; ")
		}
		d.deliver(ctx, parent, r)
	})
}

// onRoute passes a message to a remote child's worker; a cancel for a task no worker has
// taken ends it at once.
func (d *dispatcher) onRoute(ctx actor.Context, r *dispatchRoute) {
	if c, ok := r.msg.(*messages.Cancel); ok {
		if parent, res := d.table.cancelQueued(r.task, c.Reason); res != nil {
			d.deliver(ctx, parent, res)
			return
		}
	}
	if worker, _ := d.table.route(r.task, r.msg); worker != "" {
		d.toWorker(worker, r.task, r.msg)
	}
}

// deliver hands a child's result to its parent session: to its actor on this Node, or to its
// inbox when the actor is not known (a parent resumed in another run adopts its children).
func (d *dispatcher) deliver(ctx actor.Context, parent string, r *messages.AgentResult) {
	if p := d.parents[r.Session]; p != nil {
		delete(d.parents, r.Session)
		ctx.Send(p, r)
		return
	}
	if err := d.bridge.Send(parent, r); err != nil {
		d.bridge.log.Warn("dispatcher: deliver a result", "parent", parent, "task", r.Session, "err", err)
	}
}

// toWorker publishes msg to the inbox of the child task on worker.
func (d *dispatcher) toWorker(worker, task string, msg any) {
	if err := d.bridge.PublishTo(messages.WorkerInboxSubject(d.bridge.NS(), worker, task), msg); err != nil {
		d.bridge.log.Warn("dispatcher: send to a remote child", "worker", worker, "task", task, "err", err)
	}
}

// workerOfSubject is <worker> in troupe.<ns>.wrk.<worker>.results.
func workerOfSubject(subject string) string {
	parts := strings.Split(subject, ".")
	if len(parts) != 5 || parts[2] != "wrk" || parts[4] != "results" {
		return ""
	}
	return parts[3]
}
