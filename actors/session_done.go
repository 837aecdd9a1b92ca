package actors

import (
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// The definition of done (DESIGN §3, §6): a final answer is accepted only after verification.
// With a goal open the model must complete it with evidence first; with a check command
// configured troupe runs it, and a failure goes back to the model as the reason it may not
// stop yet. After MaxRefusals refused answers the run ends as failed, with the evidence.

const checkOutputBytes = 4 << 10

// verifyDone decides on a final answer: it returns true when the answer was accepted and the
// caller may go on to finish; otherwise the session has refused it (the model was told why and
// called again), started the check command, or failed after too many refusals.
func (s *session) verifyDone(ctx actor.Context, text string) bool {
	if s.done.goal != nil && s.done.goal.Status == messages.GoalActive && !s.cfg.LoopStep {
		s.refuseFinal(ctx, messages.DoneCheckGoal, "", fmt.Sprintf("You may not stop yet: the goal %q is still %s. Continue the work; "+
			"once it is met and verified, call update_goal with status \"complete\" and the evidence, then give your final answer.",
			s.done.goal.Objective, s.done.goal.Status), "the goal was never completed with evidence")
		return false
	}
	if !s.wantsCheck() {
		return true
	}
	s.startCheck(ctx, text)
	return false
}

// wantsCheck says whether the check command must pass before this answer is accepted: in a
// headless run always, in a chat or a loop step only once the goal was completed (a chat
// reply to a question is not a claim that the work is done).
func (s *session) wantsCheck() bool {
	if strings.TrimSpace(s.cfg.check.Command) == "" {
		return false
	}
	completed := s.done.goal != nil && s.done.goal.Status == messages.GoalComplete
	if s.cfg.Interactive || s.cfg.LoopStep {
		return completed
	}
	return true
}

// startCheck asks the executor to run the check command in the session's tool environment
// (RunCheck); its result comes back as CheckResult. The command runs as bash would (sandbox,
// environment) but needs no approval: the user configured it.
func (s *session) startCheck(ctx actor.Context, text string) {
	s.cur.checkFor = text
	ctx.Send(s.links.toolexec, &messages.RunCheck{Turn: s.turn, Command: s.cfg.check.Command, TimeoutS: int(s.cfg.check.Timeout / time.Second)})
	s.become(phaseChecking, s.checkingPhase)
}

// checkingPhase waits for the check command.
func (s *session) checkingPhase(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.CheckResult:
		s.onCheckDone(ctx, msg)
	case *messages.Cancel:
		s.cur.cancelling = msg.Reason
		if s.cur.cancelling == "" {
			s.cur.cancelling = "cancelled by the user"
		}
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
	out := preview(strings.TrimSpace(msg.Output), checkOutputBytes)
	if msg.IsError {
		s.refuseFinal(ctx, messages.DoneCheckCommand, out, fmt.Sprintf("You may not stop yet: the project's check `%s` failed:\n%s\n"+
			"Fix the cause, run the check yourself, and give your final answer once it passes.", s.cfg.check.Command, out),
			fmt.Sprintf("the check `%s` still fails: %s", s.cfg.check.Command, firstLine(out)))
		return
	}
	s.emit(messages.DoneCheckEvent.Of(&messages.DoneCheckData{Turn: s.turn, Kind: messages.DoneCheckCommand, Command: s.cfg.check.Command, Passed: true,
		Output: preview(out, 1024), Refusals: s.done.refusals, Max: s.cfg.check.MaxRefusals}))
	s.acceptFinal(ctx, text)
}

// refuseFinal tells the model why its final answer is refused and lets it continue — or, past
// the limit, ends the run as failed with the evidence.
func (s *session) refuseFinal(ctx actor.Context, kind messages.DoneCheckKind, output, note, failure string) {
	s.done.refusals++
	s.emit(messages.DoneCheckEvent.Of(&messages.DoneCheckData{Turn: s.turn, Kind: kind, Command: s.cfg.check.Command,
		Passed: false, Output: preview(output, 1024), Refusals: s.done.refusals, Max: s.cfg.check.MaxRefusals}))
	if s.done.refusals > s.cfg.check.MaxRefusals {
		s.fail(ctx, messages.FailDone, fmt.Sprintf("not done after %d refused final answers: %s", s.cfg.check.MaxRefusals, failure))
		return
	}
	s.noteAndCallAgain(ctx, note)
}
