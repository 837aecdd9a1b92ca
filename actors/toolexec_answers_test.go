package actors

import (
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// A returned call's answers: its result, led by the rejection's decision when it was refused
// before the permission step.
func TestCallAnswers(t *testing.T) {
	req := &messages.ToolRequest{Turn: 3, CallID: "c1", Name: "read_file"}
	cases := []struct {
		name     string
		res      tools.Result
		decision string // the rejected decision's reason, "" for none
	}{
		{"ran", tools.Result{Output: "ok", Repairs: []tools.Repair{{Kind: tools.RepairJSON, Before: "a", After: "b"}}}, ""},
		{"failed after it ran", tools.Result{Output: "exit 1", IsError: true}, ""},
		{"refused before the gate", tools.Result{Output: "path outside the workspace\nmore", IsError: true, Rejected: true}, "path outside the workspace"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := callAnswers(req, tc.res, 5*time.Millisecond)
			want := 1
			if tc.decision != "" {
				want = 2
			}
			if len(got) != want {
				t.Fatalf("got %d answers %#v, want %d", len(got), got, want)
			}
			if tc.decision != "" {
				d, ok := got[0].(*messages.ToolDecision)
				if !ok || d.Decision != messages.DecisionRejected || d.Reason != tc.decision || d.CallID != "c1" || d.Turn != 3 {
					t.Fatalf("first answer = %#v, want the rejection", got[0])
				}
			}
			r, ok := got[len(got)-1].(*messages.ToolResult)
			if !ok || r.CallID != "c1" || r.Turn != 3 || r.Name != "read_file" || r.Output != tc.res.Output ||
				r.IsError != tc.res.IsError || r.Duration != 5*time.Millisecond || len(r.Repairs) != len(tc.res.Repairs) {
				t.Fatalf("last answer = %#v, want the result", got[len(got)-1])
			}
		})
	}
}
