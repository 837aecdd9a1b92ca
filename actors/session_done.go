package actors

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// The session's side of the definition of done: doneGate (done.go) decides on a final answer;
// here its steps are carried out — the check command sent to the executor, the refusal told to
// the model, the failure recorded.

// verifyDone asks the gate about a final answer: it returns true when the answer was accepted
// and the caller may go on to finish; otherwise the session has refused it (the model was told
// why and called again), started the check command, or failed after too many refusals.
func (s *session) verifyDone(ctx actor.Context, text string) bool {
	step := s.done.judge(s.turn)
	if step.runCheck {
		s.cur.checkFor = text
		ctx.Send(s.links.toolexec, &messages.RunCheck{Turn: s.turn, Command: s.cfg.check.Command, TimeoutS: int(s.cfg.check.Timeout / time.Second)})
		s.become(phaseChecking, s.checkingPhase)
		return false
	}
	return s.takeDoneStep(ctx, step)
}

// takeDoneStep carries out the gate's answer; true means the answer was accepted.
func (s *session) takeDoneStep(ctx actor.Context, step doneStep) bool {
	if step.event != nil {
		s.emit(messages.DoneCheckEvent.Of(step.event))
	}
	switch r := step.refusal; {
	case r == nil:
		return step.accept
	case r.fail != "":
		s.fail(ctx, messages.FailDone, r.fail)
	default:
		s.takeTurnStep(ctx, turnStep{note: r.note, next: turnCallsAgain})
	}
	return false
}

// checkingPhase waits for the check command (RunCheck runs it in the session's tool
// environment, as bash would but without approval: the user configured it).
func (s *session) checkingPhase(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.CheckResult:
		s.onCheckDone(ctx, msg)
	case *messages.Cancel:
		s.cur.cancel(msg.Reason)
		s.asChild.cancelRequested = true
		ctx.Send(s.links.toolexec, &messages.Cancel{Reason: s.cur.cancelling}) // the executor stops the check; its result ends the turn
		s.respond(ctx, &messages.InputAck{Routed: messages.RoutedCommand, Output: "cancelling the check"})
	case *messages.UserInput:
		s.busy(ctx)
	}
}

func (s *session) onCheckDone(ctx actor.Context, msg *messages.CheckResult) {
	if s.phase != phaseChecking || msg.Turn != s.turn {
		return
	}
	text := s.cur.checkFor
	s.cur.checkFor = ""
	if s.cur.cancelling != "" {
		s.endCancelledTurn(ctx)
		return
	}
	if s.takeDoneStep(ctx, s.done.checked(s.turn, msg)) {
		s.acceptFinal(ctx, text)
	}
}
