package actors

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestDoneGateJudgesAFinalAnswer(t *testing.T) {
	active := &Goal{Objective: "ship it", Status: messages.GoalActive}
	complete := &Goal{Objective: "ship it", Status: messages.GoalComplete}
	for _, tc := range []struct {
		name                 string
		goal                 *Goal
		check                string
		chat, loopStep       bool
		accept, runCheck     bool
		refusedWith          string
		refusedKind          messages.DoneCheckKind
		refusalsBefore, fail int
	}{
		{name: "no goal, no check", accept: true},
		{name: "an open goal refuses", goal: active, refusedWith: "still active", refusedKind: messages.DoneCheckGoal},
		{name: "a loop step may stop with the goal open", goal: active, loopStep: true, chat: true, accept: true},
		{name: "headless with a check runs it", check: "go test ./...", runCheck: true},
		{name: "a blank check is no check", check: "  ", accept: true},
		{name: "a chat reply is not a claim of done", check: "make", chat: true, accept: true},
		{name: "a chat with the goal completed runs the check", check: "make", chat: true, goal: complete, runCheck: true},
		{name: "past the limit the run fails", goal: active, refusalsBefore: 3, fail: 1, refusedKind: messages.DoneCheckGoal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := doneGate{goal: tc.goal, refusals: tc.refusalsBefore, chat: tc.chat, loopStep: tc.loopStep,
				check: checkConfig{Command: tc.check, MaxRefusals: 3}}
			step := g.judge(7)
			if step.accept != tc.accept || step.runCheck != tc.runCheck {
				t.Fatalf("step %+v, want accept %v runCheck %v", step, tc.accept, tc.runCheck)
			}
			switch {
			case tc.refusedKind == "" && step.refusal != nil:
				t.Fatalf("refused: %+v", step.refusal)
			case tc.refusedKind != "":
				if step.refusal == nil || step.event == nil || step.event.Kind != tc.refusedKind || step.event.Passed || step.event.Turn != 7 {
					t.Fatalf("want a %s refusal, got %+v (event %+v)", tc.refusedKind, step.refusal, step.event)
				}
				if (step.refusal.fail != "") != (tc.fail > 0) || !strings.Contains(step.refusal.note, tc.refusedWith) {
					t.Fatalf("refusal %+v", step.refusal)
				}
				if g.refusals != tc.refusalsBefore+1 || step.event.Refusals != g.refusals || step.event.Max != 3 {
					t.Fatalf("refusals %d, event %+v", g.refusals, step.event)
				}
			}
		})
	}
}

func TestDoneGateJudgesTheCheckResult(t *testing.T) {
	g := doneGate{check: checkConfig{Command: "make test", MaxRefusals: 1}}
	step := g.checked(2, &messages.CheckResult{Turn: 2, Output: " ok \n"})
	if !step.accept || step.refusal != nil || step.event == nil || !step.event.Passed || step.event.Output != "ok" || step.event.Command != "make test" {
		t.Fatalf("a passing check: %+v %+v", step, step.event)
	}
	step = g.checked(3, &messages.CheckResult{Turn: 3, Output: "FAIL x_test.go:3\nmore", IsError: true})
	if step.accept || step.refusal == nil || step.refusal.fail != "" || !strings.Contains(step.refusal.note, "FAIL x_test.go:3") {
		t.Fatalf("the first failure is told to the model: %+v", step.refusal)
	}
	step = g.checked(4, &messages.CheckResult{Turn: 4, Output: "FAIL again", IsError: true})
	if step.refusal == nil || !strings.Contains(step.refusal.fail, "not done after 1 refused final answers: the check `make test` still fails: FAIL again") {
		t.Fatalf("past the limit the run fails: %+v", step.refusal)
	}
}

func TestDoneGateGoalChanges(t *testing.T) {
	active := Goal{Objective: "ship it", Status: messages.GoalActive, By: "user"}
	paused := Goal{Objective: "ship it", Status: messages.GoalPaused, By: "user"}
	for _, tc := range []struct {
		name       string
		goal       *Goal
		arg        string
		wantStatus messages.GoalStatus // "" means nothing changes
		wantReply  string
	}{
		{name: "no goal to pause", arg: "pause", wantReply: "no goal is set"},
		{name: "a new objective", arg: " write docs ", wantStatus: messages.GoalActive},
		{name: "pause", goal: &active, arg: "Pause", wantStatus: messages.GoalPaused},
		{name: "resume", goal: &paused, arg: "resume", wantStatus: messages.GoalActive},
		{name: "complete by the user", goal: &active, arg: "complete", wantStatus: messages.GoalComplete},
		{name: "show", goal: &active, arg: "", wantReply: "ship it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := doneGate{goal: tc.goal, refusals: 2}
			next, reply := g.userGoal(tc.arg)
			if tc.wantStatus == "" {
				if next != nil || !strings.Contains(reply, tc.wantReply) {
					t.Fatalf("next %+v reply %q", next, reply)
				}
				return
			}
			if next == nil || next.Status != tc.wantStatus || next.By != "user" {
				t.Fatalf("next %+v", next)
			}
			if tc.goal == nil && (next.Objective != "write docs" || g.refusals != 0) {
				t.Fatalf("a new objective starts over: %+v, refusals %d", next, g.refusals)
			}
		})
	}
	for _, tc := range []struct {
		name     string
		goal     *Goal
		req      messages.UpdateGoal
		complete bool
		refusal  string
	}{
		{name: "no goal", req: messages.UpdateGoal{Status: messages.GoalComplete, Evidence: "go test passes"}, refusal: "no goal is set"},
		{name: "only complete", goal: &active, req: messages.UpdateGoal{Status: messages.GoalPaused}, refusal: "may only set status"},
		{name: "paused by the user", goal: &paused, req: messages.UpdateGoal{Status: messages.GoalComplete, Evidence: "go test passes"}, refusal: "paused"},
		{name: "a claim is not evidence", goal: &active, req: messages.UpdateGoal{Status: messages.GoalComplete, Evidence: " done "}, refusal: "evidence is required"},
		{name: "evidence completes it", goal: &active, req: messages.UpdateGoal{Status: messages.GoalComplete, Evidence: "go test ./... passes"}, complete: true},
	} {
		t.Run("model/"+tc.name, func(t *testing.T) {
			g := doneGate{goal: tc.goal}
			next, reply := g.modelGoal(&tc.req)
			if tc.complete {
				if next == nil || next.Status != messages.GoalComplete || next.By != "model" || next.Evidence != "go test ./... passes" {
					t.Fatalf("next %+v", next)
				}
				return
			}
			e, ok := reply.(*messages.ErrorReply)
			if next != nil || !ok || !strings.Contains(e.Error, tc.refusal) {
				t.Fatalf("next %+v reply %+v", next, reply)
			}
		})
	}
	g := doneGate{goal: &active}
	if g.startGoal("ship it") != nil || g.startGoal("") != nil {
		t.Fatal("the stored goal is not set again")
	}
	if n := g.startGoal("other"); n == nil || n.Status != messages.GoalActive {
		t.Fatalf("a new --goal: %+v", n)
	}
}
