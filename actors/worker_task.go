package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/taskstate"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// One task on a worker: its slot goroutine owns the delivery (leases, in-progress acks, the
// final ack or nak, all network calls), and a taskHost actor owns the child session as a
// parent session owns a local child, receiving its projected result by ReportTo.

// resultFlushTimeout bounds waiting for the server to have a published result.
const resultFlushTimeout = 10 * time.Second

// runTask runs one delivered task to its end. It holds one slot until it returns.
func (w *Worker) runTask(d *taskqueue.Delivery) {
	defer w.tasks.Done()
	defer func() { <-w.slots }()
	t := &d.Task
	log := w.opts.Node.Log.With("worker", w.Name, "task", t.ID, "attempt", t.Attempt)
	w.lease(d)
	stopBeats := d.KeepAlive(func() { w.lease(d) })
	defer stopBeats()

	out := make(chan *messages.AgentResult, 1)
	var res *messages.AgentResult
	abandoned := false
	prepCtx, cancelPrep := context.WithTimeout(context.Background(), worktreeTimeout)
	run, err := w.code.Begin(prepCtx, t)
	cancelPrep()
	var pid *actor.PID
	if err == nil {
		pid, err = w.startTask(run, out)
	}
	if err != nil {
		res = failedTask(t, fmt.Sprintf("the agent could not start on worker %s: %v", w.Name, err))
	} else {
		select {
		case res = <-out:
		case <-w.abandon:
			abandoned = true
			_ = w.node.system.Root.PoisonFuture(pid).Wait() // it records itself interrupted
			select {
			case res = <-out: // it finished as the worker stopped: a result is a result
			default:
			}
		}
	}
	final, handBack := decideTaskEnd(t, w.Name, res, abandoned)
	ctx, cancel := context.WithTimeout(context.Background(), worktreeTimeout)
	defer cancel()
	if run != nil {
		defer func() {
			if err := w.code.Release(ctx, run); err != nil {
				log.Warn("remove a task's worktree", "err", err)
			}
		}()
	}
	if handBack {
		if err := d.Nak(); err != nil {
			log.Warn("hand a task back", "err", err) // it comes back after AckWait instead
		}
		return
	}
	if run != nil {
		w.code.Finish(ctx, run, final)
	}
	if err := w.publishResult(ctx, final); err != nil {
		log.Warn("publish a task's result", "err", err)
		_ = d.Nak() // unreported: let it run again rather than lose it
		return
	}
	if err := d.Ack(ctx); err != nil {
		log.Warn("ack a reported task", "err", err) // redelivered: the Node drops the repeat result
		return
	}
	if run != nil {
		if err := errors.Join(w.code.Done(ctx, run), w.events.forget(ctx, t.ID)); err != nil {
			log.Warn("forget a finished task's state", "err", err)
		}
	}
}

// startTask builds the child's dependencies (off the actors: they read the disk) and spawns
// its taskHost, which starts the child: fresh from the task, or resuming its restored log.
func (w *Worker) startTask(run *taskstate.Run, out chan<- *messages.AgentResult) (*actor.PID, error) {
	t := run.Task
	start := t.Start
	resume := run.Plan == taskstate.Resume
	start.ID, start.Resume, start.Owner = t.ID, resume, 0
	if run.Dir != "" {
		start.Workspace = run.Dir
	} else if fi, err := os.Stat(start.Workspace); err != nil || !fi.IsDir() {
		// No code shipped: only a parent on this machine (or a shared file system) works.
		return nil, fmt.Errorf("the task ships no code and its workspace %q is not on this machine", start.Workspace)
	}
	start.Env = nil // the worker's own environment: its provider keys, its tools' variables
	if start.Parent == "" {
		start.Parent = t.Parent
	}
	var inherited []llm.Message
	if resume {
		start.Task = "" // the restored log holds it; the session continues where it stopped
	} else {
		var err error
		if inherited, err = w.inheritedOf(t); err != nil {
			return nil, err
		}
	}
	deps, err := w.node.newSessionDeps(&start)
	if err != nil {
		return nil, err
	}
	deps.Inherited = inherited
	deps.Steer = steerKeysFrom(t.ID, t.Steer) // only a client that may steer its parent steers it
	props := actor.PropsFromProducer(func() actor.Actor { return &taskHost{start: &start, deps: deps, out: out} })
	return w.node.system.Root.SpawnNamed(props, "task-"+t.ID)
}

// inheritedOf decodes the context a fork or partial child inherits: inline in the task, or in
// the project's object store when it was large (taskstate.ShipContext).
func (w *Worker) inheritedOf(t *messages.SpawnTask) ([]llm.Message, error) {
	ctx, cancel := context.WithTimeout(context.Background(), worktreeTimeout)
	defer cancel()
	data, err := taskstate.InheritedContext(ctx, w.code.Objects, t)
	if err != nil || data == nil {
		return nil, err
	}
	var msgs []llm.Message
	if err := json.Unmarshal(data, &msgs); err != nil {
		return nil, fmt.Errorf("inherited context: %w", err)
	}
	return msgs, nil
}

// lease tells dispatching Nodes the task is alive on this worker for one more AckWait.
func (w *Worker) lease(d *taskqueue.Delivery) {
	lease := &messages.TaskLease{Task: d.Task.ID, Worker: w.Name, Until: time.Now().Add(d.LeaseFor()).UTC(), Attempt: d.Task.Attempt}
	if err := w.node.bridge.PublishTo(messages.WorkerResultsSubject(w.opts.NS, w.Name), lease); err != nil {
		w.opts.Node.Log.Warn("renew a task's lease", "worker", w.Name, "task", d.Task.ID, "err", err)
	}
}

// publishResult keeps a child's result on the bus until its parent has it (the parent's Node
// may be down: it collects it on resume), then sends it to dispatching Nodes and waits until the
// server has it. A result that cannot be kept still goes out live. A result too large for the
// bus goes (and is kept) as a preview naming the whole in the project's object store
// (taskstate.ResultForBus), which the parent's Node reads back.
func (w *Worker) publishResult(ctx context.Context, r *messages.AgentResult) error {
	r, err := taskstate.ResultForBus(ctx, w.code.Objects, r, taskstate.InlineLimit(w.node.nc.MaxPayload()))
	if err != nil {
		return err
	}
	keep, cancel := context.WithTimeout(ctx, resultFlushTimeout)
	err = w.results.Put(keep, r.Session, r)
	cancel()
	if err != nil {
		w.opts.Node.Log.Warn("keep a task's result", "worker", w.Name, "task", r.Session, "err", err)
	}
	if err := w.node.bridge.PublishTo(messages.WorkerResultsSubject(w.opts.NS, w.Name), r); err != nil {
		return err
	}
	return w.node.nc.FlushTimeout(resultFlushTimeout)
}

// taskHost is the parent, on the worker, of one task's child session: it spawns the child
// with itself as ReportTo and passes the child's result (or its absence) to the slot.
type taskHost struct {
	start *messages.StartSession
	deps  SessionDeps
	out   chan<- *messages.AgentResult // buffered 1: the host sends at most once
	sent  bool
}

// taskChildGone follows the child's Terminated through the mailbox, after any result the
// child queued before it stopped (Terminated is a system message and overtakes them).
type taskChildGone struct{}

func (h *taskHost) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		h.deps.ReportTo = ctx.Self()
		props := sessionProps(newSession(newSessionConfig(h.start), h.deps), h.deps.Runs)
		if _, err := ctx.SpawnNamed(props, "agent-"+h.start.ID); err != nil {
			h.report(&messages.AgentResult{Session: h.start.ID, Handle: h.start.Agent, Role: h.start.Role,
				Status: messages.AgentFailed, Error: fmt.Sprintf("spawn the agent: %v", err)})
			ctx.Stop(ctx.Self())
		}
	case *messages.AgentResult:
		h.report(msg)
	case *actor.Terminated:
		ctx.Send(ctx.Self(), &taskChildGone{})
	case *taskChildGone:
		h.report(nil)
		ctx.Stop(ctx.Self())
	}
}

func (h *taskHost) report(r *messages.AgentResult) {
	if !h.sent {
		h.sent = true
		h.out <- r
	}
}
