package loop

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func newLoop(t *testing.T, max int) *Loop {
	t.Helper()
	l, err := New(&messages.StartLoop{ID: "L1", Objective: "write a.txt", Plan: "PLAN.md", MaxIterations: max,
		Iteration: messages.StartSession{Model: "scripted:x", Mode: "auto-edit", Check: "test -f a.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func stepOnly(goal messages.GoalStatus) *messages.SessionFinishedData {
	return &messages.SessionFinishedData{Status: messages.StatusDone, Final: "Did a step.\nNext: more.", Goal: goal}
}

func TestLoopStartsIterationsFromTheTemplate(t *testing.T) {
	l := newLoop(t, 3)
	d := l.Begin()
	if d.Step != StartIteration {
		t.Fatalf("Begin = %+v, want StartIteration", d)
	}
	s := d.Start
	if s.ID != "L1-iter_1" || s.Agent != "loop/iter_1" || s.Parent != "L1" || !s.LoopStep || s.Model != "scripted:x" || s.Check != "test -f a.txt" {
		t.Errorf("first iteration = %+v", s)
	}
	if !strings.HasPrefix(s.Task, "Loop iteration 1 of at most 3. The objective: write a.txt") || l.Running() != "L1-iter_1" {
		t.Errorf("task %q, running %q", s.Task, l.Running())
	}
	d = l.IterationFinished("L1-iter_1", stepOnly(messages.GoalActive))
	if d.Step != StartIteration || d.Start.ID != "L1-iter_2" || !strings.Contains(d.Start.Task, "Loop iteration 2 of at most 3") {
		t.Errorf("after a step = %+v", d)
	}
}

func TestLoopFinishesDoneWithEvidence(t *testing.T) {
	l := newLoop(t, 3)
	l.Begin()
	l.GoalUpdated("L1-iter_1", &messages.GoalUpdatedData{Status: messages.GoalComplete, Evidence: "test -f a.txt passes"})
	d := l.IterationFinished("L1-iter_1", &messages.SessionFinishedData{Status: messages.StatusDone, Final: "All done.", Goal: messages.GoalComplete})
	if d.Step != Finish || d.Finished.Status != messages.StatusDone || d.Finished.Turns != 1 ||
		d.Finished.Final != "objective complete after 1 iteration(s); evidence: test -f a.txt passes" {
		t.Errorf("done = %+v %+v", d, d.Finished)
	}
	if again := l.IterationFinished("L1-iter_1", stepOnly(messages.GoalActive)); again.Step != Wait {
		t.Errorf("a finished loop decided %+v", again)
	}
}

func TestLoopRunsOutOfIterationsWithTheLastCheckOutput(t *testing.T) {
	l := newLoop(t, 2)
	l.Begin()
	l.CheckRan("L1-iter_1", &messages.DoneCheckData{Kind: messages.DoneCheckCommand, Passed: false, Output: "FIRST"})
	l.IterationFinished("L1-iter_1", stepOnly(messages.GoalActive))
	l.CheckRan("L1-iter_1", &messages.DoneCheckData{Kind: messages.DoneCheckCommand, Passed: false, Output: "stale: not the running iteration"})
	l.CheckRan("L1-iter_2", &messages.DoneCheckData{Kind: messages.DoneCheckCommand, Passed: false, Output: "STILL-FAILING\nline 2"})
	fin := &messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailDone, Error: "not done after 1 refused final answers"}
	d := l.IterationFinished("L1-iter_2", fin)
	if d.Step != Finish || d.Finished.Status != messages.StatusFailed || d.Finished.Kind != messages.FailDone || d.Finished.Turns != 2 {
		t.Fatalf("ran out = %+v", d)
	}
	for _, want := range []string{"loop L1 stopped after 2 iteration(s) without completing the objective",
		"iteration 2 failed (done) — not done after 1 refused final answers", "the last check output:\n  STILL-FAILING\n  line 2"} {
		if !strings.Contains(d.Finished.Error, want) {
			t.Errorf("error lacks %q:\n%s", want, d.Finished.Error)
		}
	}
}

func TestLoopEndsOnInterruptedOrSetupFailedIteration(t *testing.T) {
	for _, fin := range []*messages.SessionFinishedData{
		{Status: messages.StatusInterrupted, Error: "interrupted by the user (Ctrl-C)"},
		{Status: messages.StatusFailed, Kind: messages.FailConfig, Error: "context window too small"},
	} {
		l := newLoop(t, 5)
		l.Begin()
		d := l.IterationFinished("L1-iter_1", fin)
		if d.Step != Finish || d.Finished.Status != fin.Status || d.Finished.Kind != fin.Kind || d.Finished.Error != fin.Error {
			t.Errorf("after %+v: %+v", fin, d.Finished)
		}
	}
	l := newLoop(t, 5)
	l.Begin()
	d := l.StartFailed("L1-iter_1", "unknown model")
	if d.Step != Finish || d.Finished.Kind != messages.FailConfig || !strings.Contains(d.Finished.Error, "iteration 1 did not start: unknown model") {
		t.Errorf("start failed: %+v", d.Finished)
	}
}

func TestLoopStopCancelsTheRunningIterationThenFinishesInterrupted(t *testing.T) {
	l := newLoop(t, 5)
	l.Begin()
	d := l.Stop("interrupted by the user (Ctrl-C)")
	if d.Step != CancelIteration || d.Session != "L1-iter_1" || d.Reason != "interrupted by the user (Ctrl-C)" {
		t.Fatalf("stop = %+v", d)
	}
	if again := l.Stop("twice"); again.Step != Wait {
		t.Errorf("second stop = %+v", again)
	}
	// The iteration ended its step before the cancel reached it: no next iteration.
	d = l.IterationFinished("L1-iter_1", stepOnly(messages.GoalActive))
	if d.Step != Finish || d.Finished.Status != messages.StatusInterrupted || d.Finished.Error != "interrupted by the user (Ctrl-C)" {
		t.Errorf("after the cancelled iteration: %+v", d.Finished)
	}
}

func TestLoopStopBetweenIterationsFinishesAtOnce(t *testing.T) {
	l := newLoop(t, 5)
	l.Begin()
	l.StartFailed("L1-iter_1", "x") // ends it; Stop now has nothing to cancel
	if d := l.Stop("late"); d.Step != Wait {
		t.Errorf("stop after the end = %+v", d)
	}
	l = newLoop(t, 5)
	if d := l.Stop("before any"); d.Step != Finish || d.Finished.Status != messages.StatusInterrupted || d.Finished.Turns != 0 {
		t.Errorf("stop before the first iteration = %+v", d)
	}
}

func TestNewRejectsBadRequests(t *testing.T) {
	for _, req := range []messages.StartLoop{
		{ID: "a.b", Objective: "x", Plan: "P", MaxIterations: 1},
		{ID: "a", Objective: " ", Plan: "P", MaxIterations: 1},
		{ID: "a", Objective: "x", Plan: "", MaxIterations: 1},
		{ID: "a", Objective: "x", Plan: "P", MaxIterations: 0},
	} {
		if _, err := New(&req); err == nil {
			t.Errorf("New(%+v) accepted it", req)
		}
	}
}

func TestPlanPath(t *testing.T) {
	tests := []struct {
		plan, want, wantErr string
	}{
		{"PLAN.md", "PLAN.md", ""},
		{"docs/../PLAN.md", "PLAN.md", ""},
		{"notes/plan.md", "notes/plan.md", ""},
		{"/repo/notes/plan.md", "notes/plan.md", ""},
		{"/elsewhere/plan.md", "", "outside the project"},
		{"../plan.md", "", "outside the project"},
		{".", "", "outside the project"},
		{"  ", "", "--plan is empty"},
	}
	for _, tt := range tests {
		got, err := PlanPath("/repo", tt.plan)
		switch {
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("PlanPath(%q) = %q, %v; want %q", tt.plan, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("PlanPath(%q) = %q, %v; want an error containing %q", tt.plan, got, err, tt.wantErr)
		}
	}
}

func TestIterationLine(t *testing.T) {
	tests := []struct {
		fin  *messages.SessionFinishedData
		want string
	}{
		{&messages.SessionFinishedData{Status: "done", Final: "Did step 2.\nNext: step 3.", Goal: "active"}, "done — Did step 2."},
		{&messages.SessionFinishedData{Status: "done", Final: "All done.", Goal: "complete"}, "goal complete — All done."},
		{&messages.SessionFinishedData{Status: "failed", Kind: "done", Error: "not done after 3 refused final answers: …", Goal: "complete"},
			"failed (done) — not done after 3 refused final answers: …"},
		{&messages.SessionFinishedData{Status: "interrupted", Error: "interrupted by the user (Ctrl-C)"}, "interrupted — interrupted by the user (Ctrl-C)"},
	}
	for _, tt := range tests {
		if got := IterationLine(tt.fin); got != tt.want {
			t.Errorf("IterationLine(%+v) = %q, want %q", tt.fin, got, tt.want)
		}
	}
}

// The brief names the iteration, the objective and the plan file, and asks for exactly one step
// and for update_goal only once everything is met and verified.
func TestBrief(t *testing.T) {
	b := Brief("port the parser to Go", "notes/PLAN.md", 3, 10)
	for _, want := range []string{"Loop iteration 3 of at most 10. The objective: port the parser to Go", "notes/PLAN.md",
		"If it does not exist, create it", "exactly that one step", "check the step off", "update_goal", `status "complete"`} {
		if !strings.Contains(b, want) {
			t.Errorf("brief lacks %q:\n%s", want, b)
		}
	}
	if first, _, _ := strings.Cut(b, "\n"); !strings.Contains(first, "port the parser") {
		t.Errorf("the first line (what troupe watch shows) lacks the objective: %q", first)
	}
}
