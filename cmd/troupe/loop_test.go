package main

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestLoopPlanPath(t *testing.T) {
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
		got, err := planPath("/repo", tt.plan)
		switch {
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("planPath(%q) = %q, %v; want %q", tt.plan, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("planPath(%q) = %q, %v; want an error containing %q", tt.plan, got, err, tt.wantErr)
		}
	}
}

func TestLoopIterationLine(t *testing.T) {
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
		if got := iterationLine(tt.fin); got != tt.want {
			t.Errorf("iterationLine(%+v) = %q, want %q", tt.fin, got, tt.want)
		}
	}
}

// The brief names the iteration, the objective and the plan file, and asks for exactly one step
// and for update_goal only once everything is met and verified.
func TestLoopBrief(t *testing.T) {
	b := loopBrief("port the parser to Go", "notes/PLAN.md", 3, 10)
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
