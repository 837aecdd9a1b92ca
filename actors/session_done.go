package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// The session's side of the definition of done: doneGate (done.go) decides on a final answer
// and the turn (turn_state.go, answered and checked) turns that into its steps.

// checkingPhase waits for the check command (RunCheck runs it in the session's tool
// environment, as bash would but without approval: the user configured it).
func (s *session) checkingPhase(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.CheckResult:
		if msg.Turn == s.turn {
			s.takeTurnStep(ctx, s.cur.checked(s.turn, msg, &s.done, s.cfg.Interactive))
		}
	case *messages.Cancel:
		s.cur.cancel(msg.Reason)
		s.asChild.cancelRequested = true
		ctx.Send(s.links.toolexec, &messages.Cancel{Reason: s.cur.cancelling}) // the executor stops the check; its result ends the turn
		s.respond(ctx, &messages.InputAck{Routed: messages.RoutedCommand, Output: "cancelling the check"})
	case *messages.UserInput:
		s.busy(ctx)
	}
}
