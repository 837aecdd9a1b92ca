package actors

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// Messages from the model-call goroutine back to its session. They carry the turn so that a
// late message from a cancelled call is recognised and dropped.
type (
	modelEvent struct {
		turn int
		ev   llm.Event
	}
	modelRetry struct {
		turn int
		info llm.RetryInfo
	}
	modelDone struct {
		turn  int
		reply *llm.Reply
		err   error
		bytes int
		sent  int // messages in the request, for token accounting
	}
)

// How many times the harness nudges a model that replies with nothing, or is cut off by its
// output limit, before it gives up on the turn.
const (
	maxEmptyReplies    = 2
	maxLengthContinues = 3
	defaultMaxTurns    = 100
)

// routeInput handles one line of user input (docs/ARCHITECTURE.md, "How a turn flows").
func (s *session) routeInput(ctx actor.Context, text string) *messages.InputAck {
	r := classifyInput(text)
	switch r.Kind {
	case inputEmpty:
		return &messages.InputAck{Routed: messages.RoutedIgnored}
	case inputCommand, inputUnknown:
		return runCommand(sessionHost{s, ctx}, r)
	case inputShell:
		return s.runShell(ctx, r.Arg)
	}
	if s.attachMentions(ctx, text) { // the line goes to the model once its files are read
		return &messages.InputAck{Routed: messages.RoutedModel}
	}
	s.withHooks(ctx, s.hooks.prompt(text)) // its hooks, then the model
	return &messages.InputAck{Routed: messages.RoutedModel}
}

// callModel starts one turn: it rechecks the files the model has seen, projects the context and
// streams a model call in a goroutine the session owns (cancelled through cur.cancelWork).
// Receive never blocks on the model or the disk.
func (s *session) callModel(ctx actor.Context) {
	if s.turn >= s.cfg.limits.MaxTurns {
		s.fail(ctx, messages.FailBudget, fmt.Sprintf("turn budget exhausted: %d turns without a final answer", s.turn))
		return
	}
	if s.cfg.limits.overTokens(s.meta) {
		s.fail(ctx, messages.FailBudget, fmt.Sprintf("token budget exhausted: %d of %d tokens used", s.meta.InputTokens+s.meta.OutputTokens, s.cfg.limits.MaxTokens))
		return
	}
	s.turn++
	s.emit(messages.TurnStartedEvent.Of(&messages.TurnStartedData{Turn: s.turn}))
	s.withHooks(ctx, &messages.RunHooks{Event: string(hooks.PreModel), Model: s.deps.Model})
	// The turn is calling from here: a Cancel while the files are rechecked ends it before the
	// request goes out.
	s.become(phaseCalling, s.calling)
	s.recheckFiles(ctx) // prepareCall follows when the executor answers
}

// prepareCall puts what arrived since the last call into the context, then sends the request.
func (s *session) prepareCall(ctx actor.Context) {
	if s.cur.cancelling != "" {
		s.endCancelledTurn(ctx)
		return
	}
	results, delivered := s.kids.deliver()
	for _, note := range []string{results, s.asChild.takeNotes()} {
		if note == "" {
			continue
		}
		if err := s.commit(noteEntry(note)); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
	}
	for _, c := range delivered {
		s.saveChild(c)
	}
	s.budget.newTurn()
	s.sendRequest(ctx)
}

// stream starts the model call of the turn.
func (s *session) stream(ctx actor.Context, req *llm.Request) {
	size := requestSize(req)
	callCtx, cancel := context.WithCancel(context.Background())
	s.cur.cancelWork = cancel
	turn, self, root, provider := s.turn, ctx.Self(), ctx.ActorSystem().Root, s.deps.Provider
	policy := s.deps.Retry
	policy.OnRetry = func(info llm.RetryInfo) { root.Send(self, &modelRetry{turn: turn, info: info}) }
	sent := len(req.Messages)
	artifacts := s.deps.Store
	go func() {
		// Images are read from the artifact store here, off the actor, into a copy.
		call := *req
		call.Messages = llm.LoadImages(req.Messages, req.Model, artifacts.Artifact)
		reply, err := llm.StreamWithRetry(callCtx, provider, &call, func(ev llm.Event) {
			root.Send(self, &modelEvent{turn: turn, ev: ev})
		}, policy)
		root.Send(self, &modelDone{turn: turn, reply: reply, err: err, bytes: size, sent: sent})
	}()
	s.become(phaseCalling, s.calling)
}

// onModelDone records what the call cost, then carries out what the turn decides about its end.
func (s *session) onModelDone(ctx actor.Context, msg *modelDone) {
	if msg.turn != s.turn {
		return
	}
	if msg.err == nil && s.cur.cancelling == "" {
		s.withHooks(ctx, &messages.RunHooks{Event: string(hooks.PostModel), Model: s.deps.Model, Message: msg.reply.Text})
		s.recordUsage(msg.reply.Usage, msg.bytes)
		s.budget.observe(msg.reply.Usage.InputTokens, msg.sent)
	}
	s.takeTurnStep(ctx, s.cur.replied(s.turn, msg, s.cfg.Interactive))
}

// takeTurnStep carries out a step the turn decided (turn_state.go), in its order: what goes to
// the executor, the answer to the request at hand, the events,
// the reply recorded, the events that follow it, the turn made durable, the note to the model,
// then where the turn goes.
func (s *session) takeTurnStep(ctx actor.Context, st turnStep) {
	if st.tell != nil {
		ctx.Send(s.links.toolexec, st.tell)
	}
	if st.respond != nil {
		s.respond(ctx, st.respond)
	}
	s.emit(st.emit...)
	for _, a := range st.audit {
		s.audit(a.event, a.callID, a.tool, a.data)
	}
	if st.reply != nil {
		if err := s.commitAssistant(st.reply); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
	}
	s.emit(st.then...)
	if st.sync {
		s.syncStore(st.next == turnGoesOn)
	}
	if st.note != "" {
		if err := s.commit(noteEntry(st.note)); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
	}
	switch st.next {
	case turnPrepares:
		s.prepareCall(ctx)
	case turnGoesOn:
		s.continueTurn(ctx)
	case turnCallsAgain:
		s.callModel(ctx)
	case turnRunsCalls:
		s.dispatch(ctx, st.batch)
	case turnAnswers:
		s.takeTurnStep(ctx, s.cur.answered(s.turn, st.answer, &s.asChild, &s.done, s.cfg.Interactive))
	case turnAccepted: // the project's Stop hooks may still refuse it (session_hooks.go)
		s.withHooks(ctx, s.hooks.stop(st.answer, s.cfg.Parent != ""))
	case turnChecks:
		ctx.Send(s.links.toolexec, &messages.RunCheck{Turn: s.turn, Command: s.cfg.check.Command, TimeoutS: int(s.cfg.check.Timeout / time.Second)})
		s.become(phaseChecking, s.checkingPhase)
	case turnWaitsForUser:
		s.become(phaseIdle, s.idle)
	case turnPauses:
		s.emit(messages.ErrorEvent.Of(&messages.ErrorData{Message: st.reason}))
		s.become(phaseIdle, s.idle)
	case turnFails:
		s.fail(ctx, st.fail, st.reason)
	case turnCancelled:
		s.endCancelledTurn(ctx)
	case turnOverflowed:
		if !s.overflowed(ctx) { // compacting; the call is made again once it is done
			s.fail(ctx, st.fail, st.reason)
		}
	}
}

// continueTurn makes the next model call, unless subagents must end first: then the session
// waits (takeKidsStep calls afterAgentsChanged). A headless session holding its final answer
// finishes with it if the last results brought nothing new for the model.
func (s *session) continueTurn(ctx actor.Context) {
	if s.kids.blocking(s.cur.finalPending != nil) > 0 {
		s.become(phaseWaiting, s.waiting)
		return
	}
	if s.cur.finalPending != nil {
		final := *s.cur.finalPending
		s.cur.finalPending = nil
		if len(s.kids.undelivered()) == 0 {
			s.finish(ctx, &messages.SessionFinishedData{Status: messages.StatusDone, Final: final})
			return
		}
	}
	s.callModel(ctx)
}

// afterAgentsChanged lets a turn that waits for subagents go on once they have ended.
func (s *session) afterAgentsChanged(ctx actor.Context) {
	if s.phase == phaseWaiting && !s.finished() && s.kids.blocking(s.cur.finalPending != nil) == 0 {
		s.continueTurn(ctx)
	}
}

// cancelTurn stops the running model call or tool calls. The turn ends once every call has its
// result, so the pairing invariant holds even for a cancelled turn.
func (s *session) cancelTurn(ctx actor.Context, msg *messages.Cancel) {
	if ctx.Sender() != nil {
		ctx.Respond(&messages.InputAck{Routed: messages.RoutedCommand, Output: "cancelling"})
	}
	if s.cur.cancelling != "" {
		return
	}
	s.cur.cancel(msg.Reason)
	s.asChild.cancelRequested = true
	s.takeKidsStep(ctx, s.kids.cancelAll(s.cfg.handle(), s.cur.cancelling, time.Now()))
	switch s.phase {
	case phaseWaiting:
		s.cur.finalPending = nil
		s.endCancelledTurn(ctx)
	case phaseCalling:
		if s.cur.stopRecheck(s.turn, s.turn) { // no request went out yet
			s.endCancelledTurn(ctx)
			return
		}
		s.cur.stopWork()
	case phaseExecuting:
		ctx.Send(s.links.toolexec, &messages.Cancel{Reason: s.cur.cancelling})
	}
}

// endCancelledTurn closes a cancelled turn: an interactive session waits for input again, a
// headless one finishes as interrupted.
func (s *session) endCancelledTurn(ctx actor.Context) {
	reason := s.cur.cancelling
	s.cur.cancelling = ""
	s.emit(s.cur.finished(s.turn, messages.StopCancelled))
	s.syncStore(false)
	if s.cfg.Interactive {
		s.become(phaseIdle, s.idle)
		return
	}
	s.finish(ctx, &messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: reason})
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
