package actors

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// toolExec is the ToolExec actor: one per session, a child of it. It takes ToolRequests from its
// bus inbox and runs them one at a time in call order (writes must be serialized; parallel
// read-only calls are a later refinement), each in a goroutine it owns, so its mailbox stays
// free for Cancel. Results go back to the requester's inbox over the bus.
type toolExec struct {
	bridge      *Bridge
	registry    *tools.Registry
	env         *tools.Env
	perm        *tools.Gate
	sessionAddr string
	gate        *callGate // the running call's link to its permission check

	queue   []*messages.ToolRequest
	running *messages.ToolRequest
	cancel  context.CancelFunc
}

// toolDone is sent by a call's goroutine to its toolExec when the call returns.
type toolDone struct {
	req    *messages.ToolRequest
	result tools.Result
	took   time.Duration
}

func newToolExec(bridge *Bridge, registry *tools.Registry, env *tools.Env, perm *tools.Gate, sessionAddr string) actor.Producer {
	return func() actor.Actor {
		return &toolExec{bridge: bridge, registry: registry, env: env, perm: perm, sessionAddr: sessionAddr}
	}
}

func (t *toolExec) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.ToolRequest:
		t.enqueue(ctx, msg)
	case *toolDone:
		t.finish(ctx, msg)
	case *messages.ApprovalAnswer:
		t.answer(msg)
	case *messages.SetMode:
		t.perm.SetMode(tools.Mode(msg.Mode))
	case *useRegistry: // /prompt or /model, sent while no call runs
		t.registry = msg.registry
	case *useSkill: // /skills NAME
		t.env.UseSkill(msg.skill)
	case *messages.Cancel:
		t.cancelAll(msg.Reason)
	case *actor.Stopping:
		t.cancelAll("the session stopped")
	}
}

func (t *toolExec) enqueue(ctx actor.Context, req *messages.ToolRequest) {
	t.queue = append(t.queue, req)
	if t.running == nil {
		t.startNext(ctx)
	}
}

func (t *toolExec) startNext(ctx actor.Context) {
	if len(t.queue) == 0 {
		return
	}
	req := t.queue[0]
	t.queue = t.queue[1:]
	t.running = req
	t.env.Turn = req.Turn // read by the call's goroutine, started below
	callCtx, cancel := context.WithCancel(context.Background())
	t.cancel = cancel
	gate := &callGate{req: req, answers: make(chan *messages.ApprovalAnswer, 1)}
	t.gate = gate
	callCtx = withGate(callCtx, gate)
	if err := t.bridge.Send(req.ReplyTo, &messages.ToolStarted{CallID: req.CallID}); err != nil {
		ctx.Logger().Warn("report tool start", "err", err)
	}
	self, root := ctx.Self(), ctx.ActorSystem().Root
	go func() {
		start := time.Now()
		res := t.run(callCtx, req)
		root.Send(self, &toolDone{req: req, result: res, took: time.Since(start)})
	}()
}

// run executes one call. Registry.Execute recovers tool panics itself; the recover here guards
// the executor's own code, so no panic in a call can take the process down.
func (t *toolExec) run(ctx context.Context, req *messages.ToolRequest) (res tools.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = tools.Result{IsError: true, Output: fmt.Sprintf("tool %s crashed: %v (the call did not complete)", req.Name, p)}
		}
	}()
	return t.registry.Execute(ctx, t.env, tools.Call{ID: req.CallID, Name: req.Name, Args: req.Args})
}

func (t *toolExec) finish(ctx actor.Context, done *toolDone) {
	if t.running == nil || t.running.CallID != done.req.CallID {
		return // cancelled and already answered
	}
	t.cancel()
	t.running, t.cancel, t.gate = nil, nil, nil
	if done.result.Rejected {
		// It failed before the permission step: invalid arguments, a path outside the
		// workspace, a stale file. Nobody was asked; the audit trail says why.
		_ = t.bridge.Send(t.sessionAddr, &messages.ToolDecision{Turn: done.req.Turn, CallID: done.req.CallID,
			Tool: done.req.Name, Decision: messages.DecisionRejected, Reason: rejection(done.result.Output)})
	}
	t.reply(ctx, done.req, done.result, done.took)
	t.startNext(ctx)
}

func (t *toolExec) reply(ctx actor.Context, req *messages.ToolRequest, res tools.Result, took time.Duration) {
	out := &messages.ToolResult{Turn: req.Turn, CallID: req.CallID, Name: req.Name, Output: res.Output,
		IsError: res.IsError, Changed: res.Changed, Duration: took}
	for _, rp := range res.Repairs {
		out.Repairs = append(out.Repairs, messages.Repair{Kind: string(rp.Kind), Before: rp.Before, After: rp.After})
	}
	if err := t.bridge.Send(req.ReplyTo, out); err != nil {
		ctx.Logger().Error("deliver tool result", "call", req.CallID, "err", err)
	}
}

// answer hands an approval answer to the running call waiting for it.
func (t *toolExec) answer(msg *messages.ApprovalAnswer) {
	if t.gate == nil || t.gate.req.CallID != msg.CallID {
		return
	}
	select {
	case t.gate.answers <- msg:
	default: // already answered
	}
}

// cancelAll stops the running call (its process group is killed by the tool) and answers every
// queued call as cancelled, so each call still gets exactly one result.
func (t *toolExec) cancelAll(reason string) {
	if t.cancel != nil {
		t.cancel()
	}
	// The running call answers through toolDone once its tool has returned; the queue is
	// answered now.
	for _, req := range t.queue {
		_ = t.bridge.Send(req.ReplyTo, &messages.ToolResult{Turn: req.Turn, CallID: req.CallID, Name: req.Name,
			IsError: true, Output: "cancelled before it ran: " + reason})
	}
	t.queue = nil
}

// rejection is the reason a call was refused before the permission step: its result's first
// line.
func rejection(output string) string {
	line, _, _ := strings.Cut(output, "\n")
	return line
}
