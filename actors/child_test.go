package actors

import (
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

func TestChildStateBuildsItsReportOnce(t *testing.T) {
	for _, tc := range []struct {
		name       string
		verdict    bool
		cancelled  bool
		out        messages.SessionFinishedData
		status     messages.AgentState
		summary    string
		wantVerd   string
		errPart    string
		lastAnswer string
	}{
		{name: "done", out: messages.SessionFinishedData{Status: messages.StatusDone, Final: "fixed it in a.go:12"},
			status: messages.AgentDone, summary: "fixed it in a.go:12"},
		{name: "a budget failure keeps the last answer", out: messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailBudget, Error: "turns"},
			status: messages.AgentBudget, summary: "halfway", lastAnswer: "halfway", errPart: "turns"},
		{name: "cancelled", cancelled: true, out: messages.SessionFinishedData{Status: messages.StatusInterrupted},
			status: messages.AgentCancelled},
		{name: "a verifier without a verdict fails", verdict: true, out: messages.SessionFinishedData{Status: messages.StatusDone, Final: "looks fine"},
			status: messages.AgentDone, summary: "looks fine", wantVerd: "fail", errPart: "no verdict"},
		{name: "a verifier's verdict", verdict: true, out: messages.SessionFinishedData{Status: messages.StatusDone, Final: "go test ok\nVERDICT: pass"},
			status: messages.AgentDone, summary: "go test ok\nVERDICT: pass", wantVerd: "pass"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := childState{hasParent: true, verdict: tc.verdict, cancelRequested: tc.cancelled}
			c.trail.track(llm.ToolCall{ID: "1", Name: "bash", Args: `{"command":"go test ./..."}`},
				&messages.ToolResult{Output: "FAIL\n[exit code 1]", IsError: true, Changed: []string{"a.go"}})
			r := c.result(&tc.out, reportHeader{handle: "root/a", session: "p-a", role: "worker", lastAnswer: tc.lastAnswer})
			if r == nil || r.Status != tc.status || r.Summary != tc.summary || r.Verdict != tc.wantVerd || !strings.Contains(r.Error, tc.errPart) {
				t.Fatalf("result %+v", r)
			}
			if len(r.FilesChanged) != 1 || r.Evidence[0].Command != "go test ./..." || r.Evidence[0].Outcome != "exit 1: FAIL" {
				t.Fatalf("trail: files %v evidence %+v", r.FilesChanged, r.Evidence)
			}
			if c.result(&tc.out, reportHeader{}) != nil {
				t.Fatal("reported twice")
			}
		})
	}
	if (&childState{}).result(&messages.SessionFinishedData{}, reportHeader{}) != nil {
		t.Fatal("a session without a parent reports to nobody")
	}
}

func TestChildStateVerdictNudgesAndNotes(t *testing.T) {
	c := childState{verdict: true}
	for i := 0; i < maxVerdictNudges; i++ {
		if !c.needsVerdict("no verdict here") {
			t.Fatalf("nudge %d not given", i+1)
		}
	}
	if c.needsVerdict("still none") || c.needsVerdict("VERDICT: pass") {
		t.Fatal("past the nudges, or with a verdict, the answer stands")
	}
	if (&childState{}).needsVerdict("anything") {
		t.Fatal("a role that owes no verdict is never nudged")
	}
	if c.takeNotes() != "" {
		t.Fatal("no notes queued")
	}
	c.note("look at b.go")
	c.note("and c.go")
	if n := c.takeNotes(); n != "Message from your parent:\nlook at b.go\n\nand c.go" || c.takeNotes() != "" {
		t.Fatalf("notes %q", n)
	}
}

func TestChildStateWallBudget(t *testing.T) {
	tests := []struct {
		name     string
		budget   time.Duration
		finished bool
		next     turnNext
		reason   string
	}{
		{name: "spent fails the run", budget: 90 * time.Second, next: turnFails, reason: "wall-time budget exhausted: 90s"},
		{name: "spent after the finish changes nothing", budget: 90 * time.Second, finished: true, next: turnStays},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &childState{}
			c.armWall(tc.budget, func() {})
			defer c.stopWall()
			st := c.wallSpent(tc.finished)
			if st.next != tc.next || st.reason != tc.reason {
				t.Fatalf("step = next %d reason %q, want next %d reason %q", st.next, st.reason, tc.next, tc.reason)
			}
			if tc.next == turnFails && st.fail != messages.FailBudget {
				t.Fatalf("fail kind = %q, want budget", st.fail)
			}
		})
	}
	c := &childState{}
	c.armWall(0, func() { t.Error("a session without a wall budget expired") })
	if c.wallTimer != nil {
		t.Fatal("a timer runs without a wall budget")
	}
}
