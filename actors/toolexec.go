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

// toolExec is the ToolExec actor: one per session, a child of it. It owns the session's tool
// environment (the workspace, the file truth, the sandbox, background jobs) and its permission
// gate; no other actor holds them. It takes ToolRequests from its session and runs them one at a
// time in call order (writes must be serialized; parallel read-only calls are a later
// refinement), each in a goroutine it owns, so its mailbox stays free for Cancel. What else the
// session needs of the environment it asks by message too (toolexec_env.go). Every answer goes
// to the session's mailbox with the executor as its sender, which is how the session knows it
// came from its own executor; a call's result is told by the call's goroutine as it ends
// (answerFromCall), and the executor's books follow (toolDone).
type toolExec struct {
	registry *tools.Registry
	env      *tools.Env
	perm     *tools.Gate
	to       sessionTell // the session: every answer goes there
	runs     *runners    // where its calls run (mailbox_stack.go)
	gate     *callGate   // the running call's link to its permission check
	hooks    *hookRunner // nil when no hook runs (toolexec_hooks.go)
	// life ends when the executor stops: the session's hooks still running are killed then.
	life    context.Context
	endLife context.CancelFunc

	queue   []*messages.ToolRequest
	running *messages.ToolRequest
	cancel  context.CancelFunc
	// checkCancel stops the running check command (RunCheck); allowTold is how many patterns
	// of the gate's session allowlist the session has been told of.
	checkCancel context.CancelFunc
	allowTold   int
	// recheckAfter is a RecheckFiles that came behind calls: it is answered once they have run.
	recheckAfter *messages.RecheckFiles
}

// sessionTell sends a message to the session from its executor, from any goroutine: the
// executor's PID goes along as the sender.
type sessionTell struct {
	root           *actor.RootContext
	session, under *actor.PID
}

func (s sessionTell) tell(msg any) { s.root.RequestWithCustomSender(s.session, msg, s.under) }

// toolDone is sent by a call's goroutine to its toolExec when the call returns. replied says
// the goroutine told the session the result itself (answerFromCall).
type toolDone struct {
	req     *messages.ToolRequest
	result  tools.Result
	took    time.Duration
	replied bool
}

// newToolExec returns the producer of a session's executor. env and perm are the executor's
// alone: the producer is called again on a restart, and the new incarnation takes them over.
func newToolExec(registry *tools.Registry, env *tools.Env, perm *tools.Gate, hooks *hookRunner, runs *runners) actor.Producer {
	return func() actor.Actor {
		return &toolExec{registry: registry, env: env, perm: perm, hooks: hooks, runs: runs}
	}
}

func (t *toolExec) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		t.to = sessionTell{root: ctx.ActorSystem().Root, session: ctx.Parent(), under: ctx.Self()}
		t.life, t.endLife = context.WithCancel(context.Background())
		t.tellAllowlist() // a resumed session's gate starts with the list its session kept
	case *messages.ToolRequest:
		t.enqueue(ctx, msg)
	case *toolDone:
		t.finish(ctx, msg)
	case *messages.ApprovalAnswer:
		t.answer(msg)
	case *messages.SetMode:
		t.perm.SetMode(msg.Mode)
	case *messages.SessionAllowlist: // the parent's grew (a remote child): the gate takes it
		if t.perm != nil {
			for _, p := range msg.Patterns {
				t.perm.AllowForSession(p)
			}
			t.tellAllowlist()
		}
	case *messages.RecheckFiles: // after the calls before it (turn_recheck.go)
		if t.running != nil || len(t.queue) > 0 {
			t.recheckAfter = msg
			return
		}
		t.recheckFiles(msg)
	case *messages.RunCheck:
		t.runCheck(msg)
	case *messages.RunHooks:
		t.runHooks(ctx, msg)
	case *useRegistry: // /prompt or /model, sent while no call runs
		t.useRegistry(msg)
	case *useSkill: // /skills NAME
		t.env.UseSkill(msg.skill)
	case *messages.Cancel:
		t.cancelAll(msg.Reason)
	case *actor.Stopping:
		t.cancelAll("the session stopped")
		if t.endLife != nil {
			t.endLife()
		}
	case *actor.Stopped:
		t.release(ctx)
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
	gate := &callGate{req: req, answers: make(chan *messages.ApprovalAnswer, 1), to: t.to}
	t.gate = gate
	callCtx = withGate(callCtx, gate)
	t.to.tell(&messages.ToolStarted{CallID: req.CallID})
	self, root, to, told := ctx.Self(), ctx.ActorSystem().Root, t.to, t.allowTold
	t.runs.Go(func() { // on a grown stack: the registry's checks go deep (mailbox_stack.go)
		start := time.Now()
		res := t.run(callCtx, req)
		done := &toolDone{req: req, result: res, took: time.Since(start)}
		done.replied = answerFromCall(to, t.perm, told, done)
		root.Send(self, done)
	})
}

// answerFromCall tells the session a call's result from the call's goroutine, so the result
// reaches it without a hop through the executor's mailbox; the executor keeps its books when
// the toolDone follows. The executor answers instead (false) when the call grew the session
// allowlist (told is how many patterns the session had been told of at its start): the session
// must hear of the list before the result (tellAllowlist). Every tell goes out with the
// executor as its sender, as the executor's own do.
func answerFromCall(to sessionTell, perm *tools.Gate, told int, done *toolDone) bool {
	if perm != nil && perm.SessionAllowed() > told {
		return false
	}
	tellResult(to, done)
	return true
}

// run executes one call. Registry.Execute recovers tool panics itself; the recover here guards
// the executor's own code, so no panic in a call can take the process down.
func (t *toolExec) run(ctx context.Context, req *messages.ToolRequest) (res tools.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = tools.Result{IsError: true, Output: fmt.Sprintf("tool %s crashed: %v (the call did not complete)", req.Name, p)}
		}
	}()
	call := tools.Call{ID: req.CallID, Name: req.Name, Args: req.Args, Inferred: req.Inferred}
	if t.hooks.aroundCalls() {
		return t.callWithHooks(ctx, req, call)
	}
	return t.registry.Execute(ctx, t.env, call)
}

func (t *toolExec) finish(ctx actor.Context, done *toolDone) {
	if t.running == nil || t.running.CallID != done.req.CallID {
		return // cancelled and already answered
	}
	t.cancel()
	t.running, t.cancel, t.gate = nil, nil, nil
	if !done.replied {
		t.tellAllowlist() // before the result: a child spawned next inherits what was allowed
		tellResult(t.to, done)
	}
	t.startNext(ctx)
	if req := t.recheckAfter; req != nil && t.running == nil {
		t.recheckAfter = nil
		t.recheckFiles(req)
	}
}

// tellResult tells the session a finished call's result: a rejection's audit decision first.
func tellResult(to sessionTell, done *toolDone) {
	req, res := done.req, done.result
	if res.Rejected {
		// It failed before the permission step: invalid arguments, a path outside the
		// workspace, a stale file. Nobody was asked; the audit trail says why.
		to.tell(&messages.ToolDecision{Turn: req.Turn, CallID: req.CallID,
			Tool: req.Name, Decision: messages.DecisionRejected, Reason: rejection(res.Output)})
	}
	out := &messages.ToolResult{Turn: req.Turn, CallID: req.CallID, Name: req.Name, Output: res.Output,
		IsError: res.IsError, Changed: res.Changed, Duration: done.took, Images: res.Images}
	for _, rp := range res.Repairs {
		out.Repairs = append(out.Repairs, messages.Repair{Kind: string(rp.Kind), Before: rp.Before, After: rp.After})
	}
	to.tell(out)
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

// cancelAll stops the running call and the check command (their process groups are killed by
// the tool) and answers every queued call as cancelled, so each call still gets exactly one
// result.
func (t *toolExec) cancelAll(reason string) {
	if t.cancel != nil {
		t.cancel()
	}
	if t.checkCancel != nil {
		t.checkCancel()
	}
	// The running call answers through toolDone once its tool has returned; the queue is
	// answered now.
	for _, req := range t.queue {
		t.to.tell(&messages.ToolResult{Turn: req.Turn, CallID: req.CallID, Name: req.Name,
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
