package actors

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// The definition of done (docs/ARCHITECTURE.md, "The definition of done"): a final answer is
// accepted only after verification. With a goal open the model must complete it with evidence
// first; with a check command configured troupe runs it, and a failure goes back to the model
// as the reason it may not stop yet. After MaxRefusals refused answers the run ends as failed,
// with the evidence. doneGate decides; the session carries its steps out (session_done.go).

// doneGate is the goal and the record of refused final answers. It owns its state and returns
// the next step; it never sends, emits or writes.
type doneGate struct {
	goal     *Goal
	refusals int
	check    checkConfig
	// chat is an interactive session or a loop step: a reply there is not a claim that the
	// work is done, so the check runs only once the goal was completed. loopStep may also end
	// with the goal still open.
	chat, loopStep bool
}

// newDoneGate is the gate of a session started with cfg.
func newDoneGate(cfg *sessionConfig) doneGate {
	return doneGate{check: cfg.check, chat: cfg.Interactive || cfg.LoopStep, loopStep: cfg.LoopStep}
}

// doneStep is the gate's answer about a final answer: accept it, run the check command first,
// or refuse it (refusal set).
type doneStep struct {
	accept, runCheck bool
	// event reports the check (a passed check comes with accept; a refusal always has one).
	event   *messages.DoneCheckData
	refusal *doneRefusal
}

// doneRefusal is a refused final answer: note tells the model why and it is called again, or,
// past the limit, fail is the run's failure.
type doneRefusal struct {
	note, fail string
}

// checkOutputBytes bounds the check's output the model is shown; the event carries less.
const checkOutputBytes = 4 << 10

// judge decides on a final answer in turn.
func (g *doneGate) judge(turn int) doneStep {
	if g.goal != nil && g.goal.Status == messages.GoalActive && !g.loopStep {
		return g.refuse(turn, messages.DoneCheckGoal, "", fmt.Sprintf("You may not stop yet: the goal %q is still %s. Continue the work; "+
			"once it is met and verified, call update_goal with status \"complete\" and the evidence, then give your final answer.",
			g.goal.Objective, g.goal.Status), "the goal was never completed with evidence")
	}
	if !g.wantsCheck() {
		return doneStep{accept: true}
	}
	return doneStep{runCheck: true}
}

// wantsCheck says whether the check command must pass before an answer is accepted: in a
// headless run always, in a chat or a loop step only once the goal was completed.
func (g *doneGate) wantsCheck() bool {
	if strings.TrimSpace(g.check.Command) == "" {
		return false
	}
	if g.chat {
		return g.goal != nil && g.goal.Status == messages.GoalComplete
	}
	return true
}

// checked decides on the check command's result in turn.
func (g *doneGate) checked(turn int, res *messages.CheckResult) doneStep {
	out := preview(strings.TrimSpace(res.Output), checkOutputBytes)
	if res.IsError {
		return g.refuse(turn, messages.DoneCheckCommand, out, fmt.Sprintf("You may not stop yet: the project's check `%s` failed:\n%s\n"+
			"Fix the cause, run the check yourself, and give your final answer once it passes.", g.check.Command, out),
			fmt.Sprintf("the check `%s` still fails: %s", g.check.Command, firstLine(out)))
	}
	return doneStep{accept: true, event: g.event(turn, messages.DoneCheckCommand, true, out)}
}

// refuse counts a refused answer: the model is told why, or past the limit the run fails.
func (g *doneGate) refuse(turn int, kind messages.DoneCheckKind, output, note, failure string) doneStep {
	g.refusals++
	step := doneStep{event: g.event(turn, kind, false, output), refusal: &doneRefusal{note: note}}
	if g.refusals > g.check.MaxRefusals {
		step.refusal = &doneRefusal{fail: fmt.Sprintf("not done after %d refused final answers: %s", g.check.MaxRefusals, failure)}
	}
	return step
}

func (g *doneGate) event(turn int, kind messages.DoneCheckKind, passed bool, output string) *messages.DoneCheckData {
	return &messages.DoneCheckData{Turn: turn, Kind: kind, Command: g.check.Command, Passed: passed,
		Output: preview(output, 1024), Refusals: g.refusals, Max: g.check.MaxRefusals}
}

// minEvidence is the shortest evidence accepted: "done" is a claim, not evidence.
const minEvidence = 10

// userGoal is /goal [objective|pause|resume|clear|complete], the user's side of the goal: the
// goal to record (nil: nothing changes) and, when nothing changes, the answer.
func (g *doneGate) userGoal(arg string) (*Goal, string) {
	word := strings.ToLower(strings.TrimSpace(arg))
	has := g.goal != nil && g.goal.Status != messages.GoalCleared
	next := Goal{By: "user"}
	if has {
		next = *g.goal
		next.By = "user"
	}
	switch {
	case word == "":
		return nil, tools.FormatGoal(g.goal)
	case word == "pause" || word == "resume" || word == "clear" || word == "complete":
		if !has {
			return nil, "no goal is set: /goal <objective> sets one"
		}
		next.Status = map[string]messages.GoalStatus{"pause": messages.GoalPaused, "resume": messages.GoalActive,
			"clear": messages.GoalCleared, "complete": messages.GoalComplete}[word]
		if word == "complete" {
			next.Evidence = "completed by the user"
		}
	default:
		next = Goal{Objective: strings.TrimSpace(arg), Status: messages.GoalActive, By: "user"}
		g.refusals = 0
	}
	return &next, ""
}

// modelGoal is update_goal from the model: completion only, with evidence, of an active goal.
// It returns the goal to record, or the reply (a refusal, or the goal already complete).
func (g *doneGate) modelGoal(req *messages.UpdateGoal) (*Goal, any) {
	cur := g.goal
	switch {
	case cur == nil || cur.Status == messages.GoalCleared:
		return nil, &messages.ErrorReply{Error: "no goal is set; only the user sets goals"}
	case req.Status != messages.GoalComplete:
		return nil, &messages.ErrorReply{Error: fmt.Sprintf("status %q: the model may only set status \"complete\"; the user owns the rest", req.Status)}
	case cur.Status == messages.GoalPaused:
		return nil, &messages.ErrorReply{Error: "the user paused this goal; it cannot be completed until they resume it"}
	case cur.Status == messages.GoalComplete:
		return nil, &messages.GoalReply{Goal: cur}
	case len(strings.TrimSpace(req.Evidence)) < minEvidence:
		return nil, &messages.ErrorReply{Error: "evidence is required: name the commands you ran and their outcome, and the files you changed"}
	}
	next := *cur
	next.Status, next.Evidence, next.By = messages.GoalComplete, strings.TrimSpace(req.Evidence), "model"
	return &next, nil
}

// startGoal is the goal a start's --goal sets, unless the stored one already is it.
func (g *doneGate) startGoal(objective string) *Goal {
	if objective == "" || (g.goal != nil && g.goal.Objective == objective && g.goal.Status != messages.GoalCleared) {
		return nil
	}
	return &Goal{Objective: objective, Status: messages.GoalActive, By: "user"}
}

// stateBlock is the goal as the model sees it after the conversation each turn (none when
// there is no goal).
func (g *doneGate) stateBlock() (projection.StateBlock, bool) {
	if g.goal == nil || g.goal.Status == messages.GoalCleared {
		return projection.StateBlock{}, false
	}
	return projection.StateBlock{Title: "Goal", Body: tools.FormatGoal(g.goal)}, true
}

// outcome is the goal's status for the session's outcome ("" without a goal).
func (g *doneGate) outcome() messages.GoalStatus {
	if g.goal == nil {
		return ""
	}
	return g.goal.Status
}
