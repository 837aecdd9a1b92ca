package actors

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/actors/loop"
	"github.com/troupe-dev/troupe/messages"
)

// loopActor is troupe loop in the runtime: it starts each iteration as a headless session
// through the Supervisor, follows the iteration's events on the bus, asks the plain loop.Loop
// what follows, and emits the loop's own session.started/finished under the loop's id. A
// Cancel on the loop's control subject stops it. Receive only routes; it never waits.
type loopActor struct {
	req        *messages.StartLoop
	plan       *loop.Loop
	bridge     *Bridge
	supervisor *actor.PID
	log        *slog.Logger
	workspace  string

	em        *messages.Emitter
	control   *nats.Subscription
	iteration *nats.Subscription // the running iteration's events
	over      bool
}

// startIterationTimeout bounds the Supervisor's answer to an iteration's start.
const startIterationTimeout = 15 * time.Second

func newLoopActor(req *messages.StartLoop, plan *loop.Loop, bridge *Bridge, supervisor *actor.PID, workspace string, log *slog.Logger) actor.Producer {
	return func() actor.Actor {
		return &loopActor{req: req, plan: plan, bridge: bridge, supervisor: supervisor, workspace: workspace, log: log}
	}
}

func (a *loopActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.started(ctx)
	case *sessionEvent:
		a.onIterationEvent(ctx, msg)
	case *messages.Cancel:
		ctx.Respond(&messages.InputAck{Routed: messages.RoutedCommand, Output: "loop stopping"})
		a.act(ctx, a.plan.Stop(msg.Reason))
	case *actor.Stopping:
		if d := a.plan.Abort("the troupe node shut down"); d.Step == loop.Finish && !a.over {
			a.over = true
			a.emit(messages.SessionFinishedEvent.Of(d.Finished))
		}
		a.unbind()
	}
}

func (a *loopActor) started(ctx actor.Context) {
	a.em = messages.NewEmitter(a.bridge.NS(), a.req.ID, messages.AgentLoop, "", 1, a.bridge.Publish)
	a.emit(messages.SessionStartedEvent.Of(&messages.SessionStartedData{Model: a.req.Iteration.Model, Mode: a.req.Iteration.Mode,
		Workspace: a.workspace, Task: a.req.Objective, Role: messages.AgentLoop}))
	var err error
	if a.control, err = a.bridge.BindControl(a.req.ID, a.bridge.steer, ctx.Self(), 5*time.Second); err != nil {
		a.act(ctx, a.plan.Abort(err.Error()))
		return
	}
	a.act(ctx, a.plan.Begin())
}

func (a *loopActor) onIterationEvent(ctx actor.Context, ev *sessionEvent) {
	switch d := ev.Data.(type) {
	case *messages.DoneCheckData:
		a.plan.CheckRan(ev.Session, d)
	case *messages.GoalUpdatedData:
		a.plan.GoalUpdated(ev.Session, d)
	case *messages.SessionFinishedData:
		a.act(ctx, a.plan.IterationFinished(ev.Session, d))
	}
}

// act carries out a decision of the plan.
func (a *loopActor) act(ctx actor.Context, d loop.Decision) {
	switch d.Step {
	case loop.StartIteration:
		a.startIteration(ctx, d.Start)
	case loop.CancelIteration:
		a.cancelIteration(d.Session, d.Reason)
	case loop.Finish:
		a.finish(ctx, d.Finished)
	}
}

// startIteration follows the iteration's events before asking the Supervisor to start it, so
// none is missed. A start the Supervisor refuses ends the loop as a setup failure.
func (a *loopActor) startIteration(ctx actor.Context, start *messages.StartSession) {
	a.unfollow()
	sub, err := a.bridge.Follow(start.ID, ctx.Self())
	if err != nil {
		a.act(ctx, a.plan.StartFailed(start.ID, err.Error()))
		return
	}
	a.iteration = sub
	id := start.ID
	ctx.ReenterAfter(ctx.RequestFuture(a.supervisor, start, startIterationTimeout), func(res any, err error) {
		if e, ok := res.(*messages.ErrorReply); ok && err == nil {
			err = errors.New(e.Error)
		}
		if err != nil {
			a.act(ctx, a.plan.StartFailed(id, err.Error()))
		}
	})
}

// cancelIteration asks the running iteration to stop, as troupe's Ctrl-C does: it finishes
// interrupted and stays resumable.
func (a *loopActor) cancelIteration(session, reason string) {
	if err := a.bridge.publishControl(session, &messages.Cancel{Reason: reason}); err != nil {
		a.log.Warn("cancel loop iteration", "loop", a.req.ID, "session", session, "err", err)
	}
}

func (a *loopActor) finish(ctx actor.Context, out *messages.SessionFinishedData) {
	if a.over {
		return
	}
	a.over = true
	a.emit(messages.SessionFinishedEvent.Of(out))
	a.unbind()
	ctx.Stop(ctx.Self())
}

func (a *loopActor) emit(p messages.Payload) {
	if _, err := a.em.Emit(p); err != nil {
		a.log.Warn("emit loop event", "loop", a.req.ID, "type", p.EventType(), "err", err)
	}
}

func (a *loopActor) unfollow() {
	if a.iteration != nil {
		_ = a.iteration.Unsubscribe()
		a.iteration = nil
	}
}

func (a *loopActor) unbind() {
	a.unfollow()
	if a.control != nil {
		_ = a.control.Unsubscribe()
		a.control = nil
	}
}

// startLoop spawns the orchestrator of a StartLoop request. Its first event (session.started)
// may follow the answer: subscribe to the loop's events before asking.
func (n *Node) startLoop(req *messages.StartLoop) any {
	plan, err := loop.New(req)
	if err != nil {
		return &messages.ErrorReply{Error: err.Error()}
	}
	workspace := req.Iteration.Workspace
	if workspace == "" {
		workspace = n.Root
	}
	props := actor.PropsFromProducer(newLoopActor(req, plan, n.bridge, n.supervisor, workspace, n.opts.Log))
	if _, err := n.system.Root.SpawnNamed(props, "loop-"+req.ID); err != nil {
		return &messages.ErrorReply{Error: fmt.Sprintf("spawn loop %s: %v", req.ID, err)}
	}
	return &messages.LoopAccepted{ID: req.ID, Steer: n.steerToken(req.ID)}
}
