package actors

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// The dispatcher (docs/ARCHITECTURE.md "Subagents on workers") is the Node's one actor that
// sends children to workers: it publishes their SpawnTasks to the project's task queue, keeps
// the book of what it dispatched (dispatchTable), hears the workers' results and leases on
// troupe.<ns>.wrk.*.results and the dead letters on troupe.<ns>.dead, and forwards each child's
// result to its parent session exactly once. Messages for a remote child (cancel, notes, mode
// changes, allowlist growth) go through it to the worker's inbox for that child.

// TaskQueue is the project's task queue as the dispatcher uses it (internal/taskqueue).
type TaskQueue interface {
	// Publish queues a task (a re-published id is not queued twice). note, when not empty,
	// is for the user: how the task's code went differs from what was configured.
	Publish(ctx context.Context, task *messages.SpawnTask) (note string, err error)
	// Waiting reports whether a worker is waiting for a task right now.
	Waiting(ctx context.Context) (bool, error)
	// Collect brings in what a remote child returned by reference (its whole result when it
	// was too large for the bus, a writing child's branch into the parent's checkout; base is
	// the commit the task was sent with), then deletes what the task left in the object store.
	// It returns the result to deliver, whole when it could be read, and what went wrong.
	Collect(ctx context.Context, base string, r *messages.AgentResult) (*messages.AgentResult, error)
	// Reconcile tells where each task a resumed parent adopted stands on the bus (its kept
	// outcome, or its place in the queue); see dispatch_restore.go.
	Reconcile(ctx context.Context, tasks []string) (map[string]taskOnBus, error)
	// Forget removes a task's kept outcome once its parent recorded it.
	Forget(ctx context.Context, task string) error
	// Close lets go of what the queue runs (its dead-letter republisher).
	Close()
}

// TaskQueueOpener opens the project's task queue over the Node's connection; code says where
// the Node's code is and how it travels.
type TaskQueueOpener func(ctx context.Context, nc *nats.Conn, ns string, code CodeOptions) (TaskQueue, error)

// Dispatch timings; DispatchOptions zero values take these.
const (
	// A lease that ran out this long ago with no renewal and no redelivery fails the child:
	// long enough for the queue to hand the task to another worker after its AckWait.
	defaultLeaseGrace = 2 * time.Minute
	// How long a worker heard from (a lease) counts as attached.
	attachedHorizon = time.Minute
	dispatchTick    = time.Second
	queueTimeout    = 10 * time.Second
	// Shipping a task's code (a bundle of the repository) and bringing a branch back.
	publishTimeout = 5 * time.Minute
	importTimeout  = 5 * time.Minute
	// A finished task is remembered this long, so a late lease for it is recognised.
	finishedMemory = 10 * time.Minute
	// After the queue failed to open, dispatches are refused this long before trying again.
	reopenAfter = 30 * time.Second
)

// DispatchOptions configure the Node's dispatcher. A nil Open dispatches nothing: every child
// runs locally.
type DispatchOptions struct {
	Open       TaskQueueOpener
	Code       CodeOptions
	LeaseGrace time.Duration
}

// Messages between sessions and the dispatcher (in-process: a session and its Node's dispatcher
// are in one process; what crosses the bus is the SpawnTask, the lease and the result).
type (
	// dispatchTask asks to send a child to the workers; the answer is a dispatchOutcome.
	dispatchTask struct {
		task   *messages.SpawnTask
		parent *actor.PID
	}
	// dispatchOutcome answers dispatchTask: refused says why the child must run locally; note
	// is a warning for the user about a child that was sent (its code went as bundles).
	dispatchOutcome struct {
		note    string
		task    string
		refused string
	}
	// childPlaced tells the parent a worker took its child (or took it again, after a
	// redelivery).
	childPlaced struct {
		task, worker string
		attempt      int
	}
	// dispatchRoute passes msg to a remote child (held until a worker takes it).
	dispatchRoute struct {
		task string
		msg  any
	}
	// dispatchAdopt makes a resumed parent's unfinished remote child known again.
	dispatchAdopt struct {
		task, handle, role, worker string
		parent                     *actor.PID
		parentID                   string
	}
	// fromWorker is a message heard on a worker's results subject, with the worker the subject
	// names (a worker may publish only its own subject, so that name is trusted).
	fromWorker struct {
		worker string
		msg    any
	}
	// dispatchRecorded tells the dispatcher a parent recorded a remote child's outcome in its
	// store: the bus may forget it.
	dispatchRecorded struct{ task string }
	queueOpened      struct {
		queue TaskQueue
		err   error
	}
	dispatchTickMsg struct{}
)

type dispatcher struct {
	bridge *Bridge
	opts   DispatchOptions
	table  *dispatchTable
	// parents maps a task to the PID of its parent session on this Node.
	parents map[string]*actor.PID

	queue    TaskQueue
	opening  bool
	openErr  error
	failedAt time.Time
	waiting  []*dispatchTask // asked while the queue was opening

	// adopted are the tasks of resumed parents not yet reconciled with the bus (one
	// reconciliation runs at a time: reconciling).
	adopted     []string
	reconciling bool
	// forgetting are recorded outcomes the bus may drop, in batches (one in flight: forgetBusy).
	forgetting []string
	forgetBusy bool

	subs []*nats.Subscription
	stop chan struct{}
}

func newDispatcher(bridge *Bridge, opts DispatchOptions) actor.Producer {
	if opts.LeaseGrace <= 0 {
		opts.LeaseGrace = defaultLeaseGrace
	}
	return func() actor.Actor {
		return &dispatcher{bridge: bridge, opts: opts, table: newDispatchTable(opts.LeaseGrace), parents: map[string]*actor.PID{}}
	}
}

// Receive only routes: the decisions are the table's.
func (d *dispatcher) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		d.started(ctx)
	case *actor.Stopping:
		d.stopping()
	case *dispatchTask:
		d.onTask(ctx, msg)
	case *queueOpened:
		d.onOpened(ctx, msg)
	case *fromWorker:
		d.onWorker(ctx, msg)
	case *messages.DeadTask:
		if parent, r := d.table.dead(msg); r != nil {
			d.deliver(ctx, parent, r)
		}
	case *dispatchRoute:
		d.onRoute(ctx, msg)
	case *dispatchAdopt:
		d.onAdopt(ctx, msg)
	case *adoptReconciled:
		d.onReconciled(ctx, msg)
	case *dispatchRecorded:
		d.onRecorded(ctx, msg)
	case *dispatchTickMsg:
		now := time.Now()
		for _, f := range d.table.lapsed(now) {
			d.deliver(ctx, f.parent, f.result)
		}
		d.table.forget(now, finishedMemory)
	}
}

// started subscribes to the workers' results and the dead letters and starts the lease clock.
func (d *dispatcher) started(ctx actor.Context) {
	self, root, ns := ctx.Self(), ctx.ActorSystem().Root, d.bridge.NS()
	results, err := d.bridge.Forward(messages.AllWorkerResultsSubject(ns), self, func(subject string, msg any) any {
		return &fromWorker{worker: workerOfSubject(subject), msg: msg}
	})
	if err == nil {
		d.subs = append(d.subs, results)
	}
	dead, err2 := d.bridge.Forward(messages.DeadTasksSubject(ns), self, func(_ string, msg any) any {
		if dt, ok := msg.(*messages.DeadTask); ok {
			return dt
		}
		return nil
	})
	if err2 == nil {
		d.subs = append(d.subs, dead)
	}
	if err != nil || err2 != nil {
		d.bridge.log.Warn("dispatcher: subscribe to workers", "err", fmt.Errorf("%w; %w", err, err2))
	}
	d.stop = make(chan struct{})
	go func(stop <-chan struct{}) {
		t := time.NewTicker(dispatchTick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				root.Send(self, &dispatchTickMsg{})
			}
		}
	}(d.stop)
}

func (d *dispatcher) stopping() {
	for _, s := range d.subs {
		_ = s.Unsubscribe()
	}
	if d.queue != nil {
		d.queue.Close()
	}
	if d.stop != nil {
		close(d.stop)
		d.stop = nil
	}
}

// onTask publishes a task once the queue is open and a worker is attached; otherwise it
// refuses, and the parent starts the child locally.
func (d *dispatcher) onTask(ctx actor.Context, msg *dispatchTask) {
	// Booked at once, so a cancel that comes while the queue opens finds the task.
	d.table.add(msg.task, time.Now())
	if d.bridge.steer != nil { // its worker checks who may steer it (steer.go)
		msg.task.Steer = d.bridge.steer.mac(msg.task.ID)
	}
	d.parents[msg.task.ID] = msg.parent
	switch {
	case d.opts.Open == nil:
		d.refuse(ctx, msg, "this node dispatches to no workers")
		return
	case d.queue == nil && !d.opening && d.openErr != nil && time.Since(d.failedAt) < reopenAfter:
		d.refuse(ctx, msg, "the task queue is not available: "+d.openErr.Error())
		return
	case d.queue == nil:
		d.waiting = append(d.waiting, msg)
		d.openQueue(ctx)
		return
	}
	d.publish(ctx, msg)
}

// openQueue opens the task queue off the actor, once; onOpened takes the outcome.
func (d *dispatcher) openQueue(ctx actor.Context) {
	if d.opening || d.queue != nil || d.opts.Open == nil {
		return
	}
	d.opening = true
	open, nc, ns, code := d.opts.Open, d.bridge.nc, d.bridge.NS(), d.opts.Code
	offActor(ctx, queueTimeout+time.Second, func() *queueOpened {
		c, cancel := context.WithTimeout(context.Background(), queueTimeout)
		defer cancel()
		q, err := open(c, nc, ns, code)
		return &queueOpened{queue: q, err: err}
	}, func(o *queueOpened, err error) {
		if err == nil && o != nil {
			err = o.err
		}
		var q TaskQueue
		if o != nil {
			q = o.queue
		}
		d.onOpened(ctx, &queueOpened{queue: q, err: err})
	})
}

func (d *dispatcher) onOpened(ctx actor.Context, o *queueOpened) {
	d.opening = false
	waiting := d.waiting
	d.waiting = nil
	if o.err != nil || o.queue == nil {
		d.openErr, d.failedAt = o.err, time.Now()
		if d.openErr == nil {
			d.openErr = fmt.Errorf("no queue")
		}
		for _, m := range waiting {
			d.refuse(ctx, m, "the task queue is not available: "+d.openErr.Error())
		}
		d.adoptedUnreconciled(ctx)
		return
	}
	d.queue, d.openErr = o.queue, nil
	for _, m := range waiting {
		d.publish(ctx, m)
	}
	d.reconcile(ctx)
}

// publish checks that a worker is attached (one heard from recently, or one waiting on the
// queue), then queues the task, both off the actor.
func (d *dispatcher) publish(ctx actor.Context, msg *dispatchTask) {
	q, known := d.queue, d.table.attached(time.Now(), attachedHorizon)
	task := msg.task
	if d.table.ended(task.ID) {
		return // cancelled before it was queued: its result went to the parent already
	}
	type published struct{ why, note string }
	offActor(ctx, publishTimeout+time.Second, func() published {
		c, cancel := context.WithTimeout(context.Background(), publishTimeout)
		defer cancel()
		if !known {
			ok, err := q.Waiting(c)
			if err != nil {
				return published{why: "cannot tell whether a worker is attached: " + err.Error()}
			}
			if !ok {
				return published{why: "no worker is attached"}
			}
		}
		note, err := q.Publish(c, task)
		if err != nil {
			return published{why: "queue the task: " + err.Error()}
		}
		return published{note: note}
	}, func(p published, err error) {
		if err != nil {
			p.why = "queue the task: " + err.Error()
		}
		if p.why != "" {
			d.refuse(ctx, msg, p.why)
			return
		}
		d.table.sentWith(task.ID, task.Repo.Base)
		ctx.Send(msg.parent, &dispatchOutcome{task: task.ID, note: p.note})
	})
}

func (d *dispatcher) refuse(ctx actor.Context, msg *dispatchTask, why string) {
	d.table.drop(msg.task.ID)
	delete(d.parents, msg.task.ID)
	ctx.Send(msg.parent, &dispatchOutcome{task: msg.task.ID, refused: why})
}
