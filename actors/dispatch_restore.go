package actors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/messages"
)

// A parent resumed on a restarted Node collects its remote children (docs/WORKERS.md "Durable
// results"): each child it adopts is reconciled with the bus — the outcome a worker (or the
// dead-letter republisher) kept for it in the project's results bucket, or its place in the
// task queue — and the dispatcher's table decides (dispatchTable.reconciled). Once a parent has
// recorded a remote child's outcome in its store, the bus forgets it.

// taskOnBus is what the bus holds of one task.
type taskOnBus struct {
	result *messages.AgentResult // its result, kept by the worker that finished it
	dead   *messages.DeadTask    // its dead letter: it exhausted its deliveries
	queue  taskqueue.Waiting     // its place in the task stream
}

// adoptReconciled brings the bus's answer for adopted tasks back to the dispatcher.
type adoptReconciled struct {
	tasks []string
	found map[string]taskOnBus
	err   error
}

// reconcileTimeout bounds one reconciliation (one request per kept outcome and per queued task).
const reconcileTimeout = time.Minute

// onAdopt makes a resumed parent's child known again and asks the bus where it stands.
func (d *dispatcher) onAdopt(ctx actor.Context, msg *dispatchAdopt) {
	d.table.adopt(msg.task, msg.parentID, msg.handle, msg.role, msg.worker, time.Now())
	d.parents[msg.task] = msg.parent
	d.adopted = append(d.adopted, msg.task)
	switch {
	case d.opts.Open == nil:
		d.adoptedUnreconciled(ctx)
	case d.queue == nil:
		d.openQueue(ctx) // onOpened reconciles
	default:
		d.reconcile(ctx)
	}
}

// reconcile asks the bus about the adopted tasks, off the actor, one batch at a time.
func (d *dispatcher) reconcile(ctx actor.Context) {
	if d.reconciling || d.queue == nil || len(d.adopted) == 0 {
		return
	}
	d.reconciling = true
	tasks, q := d.adopted, d.queue
	d.adopted = nil
	offActor(ctx, reconcileTimeout+time.Second, func() *adoptReconciled {
		c, cancel := context.WithTimeout(context.Background(), reconcileTimeout)
		defer cancel()
		found, err := q.Reconcile(c, tasks)
		return &adoptReconciled{tasks: tasks, found: found, err: err}
	}, func(r *adoptReconciled, err error) {
		if r == nil {
			r = &adoptReconciled{tasks: tasks}
		}
		if err != nil {
			r.err = err
		}
		d.onReconciled(ctx, r)
	})
}

// onReconciled delivers what the bus says of the adopted tasks; when it could not say, they
// keep the lease clock adopt gave them (a task no worker renews fails after one grace).
func (d *dispatcher) onReconciled(ctx actor.Context, r *adoptReconciled) {
	d.reconciling = false
	if r.err != nil {
		d.bridge.log.Warn("dispatcher: reconcile a resumed parent's remote children", "tasks", len(r.tasks), "err", r.err)
	} else {
		now := time.Now()
		for _, task := range r.tasks {
			if parent, res := d.table.reconciled(task, r.found[task], now); res != nil {
				d.bringBack(ctx, parent, "", res) // its base is in the branch's history
			}
		}
	}
	d.reconcile(ctx) // adopted meanwhile
}

// adoptedUnreconciled leaves the adopted tasks on their lease clock: the bus cannot be asked.
func (d *dispatcher) adoptedUnreconciled(actor.Context) { d.adopted = nil }

// onRecorded queues a recorded outcome for the bus to forget.
func (d *dispatcher) onRecorded(ctx actor.Context, m *dispatchRecorded) {
	if d.queue == nil {
		return // nothing of this run went through the bus
	}
	d.forgetting = append(d.forgetting, m.task)
	d.forget(ctx)
}

// Forgetting recorded outcomes: at most forgetBatch a time, one batch in flight, so thousands
// of children finishing at once take one goroutine, not thousands.
const (
	forgetBatch   = 1000
	forgetTimeout = 5 * time.Minute
)

// forget drops a batch of recorded outcomes off the actor (a failure only leaves them to expire).
func (d *dispatcher) forget(ctx actor.Context) {
	if d.forgetBusy || len(d.forgetting) == 0 {
		return
	}
	d.forgetBusy = true
	n := min(len(d.forgetting), forgetBatch)
	tasks, q := d.forgetting[:n:n], d.queue
	d.forgetting = d.forgetting[n:]
	offActor(ctx, forgetTimeout+time.Second, func() error {
		c, cancel := context.WithTimeout(context.Background(), forgetTimeout)
		defer cancel()
		var failed []error
		for _, t := range tasks {
			if err := q.Forget(c, t); err != nil && len(failed) < 3 {
				failed = append(failed, err)
			}
		}
		return errors.Join(failed...)
	}, func(err, timeout error) {
		d.forgetBusy = false
		if err = errors.Join(err, timeout); err != nil {
			d.bridge.log.Warn("dispatcher: forget recorded results", "tasks", len(tasks), "err", err)
		}
		d.forget(ctx)
	})
}

// Reconcile reads the kept outcome of each task, then, for those without one, their place in
// the stream. The stream is read first: a worker keeps a task's result before it acks it, so a
// task that left the stream between the two reads has its outcome kept by then.
func (j *jetQueue) Reconcile(ctx context.Context, tasks []string) (map[string]taskOnBus, error) {
	if j.results == nil {
		return nil, fmt.Errorf("the results bucket is not open")
	}
	places, err := j.q.Find(ctx, tasks)
	if err != nil {
		return nil, err
	}
	out := make(map[string]taskOnBus, len(tasks))
	for _, t := range tasks {
		kept, err := j.results.Get(ctx, t)
		if err != nil {
			return nil, err
		}
		on := taskOnBus{queue: places[t]}
		switch v := kept.(type) {
		case *messages.AgentResult:
			on.result = v
		case *messages.DeadTask:
			on.dead = v
		}
		out[t] = on
	}
	return out, nil
}

// Forget removes a recorded task's outcome from the results bucket.
func (j *jetQueue) Forget(ctx context.Context, task string) error {
	if j.results == nil {
		return nil
	}
	return j.results.Remove(ctx, task)
}
