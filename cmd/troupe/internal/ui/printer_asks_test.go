package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// A follower of a session shows the approval requests of its subagents (with the session to
// answer in), not those of other sessions, and each denial once.
func TestPrinterShowsSubagentAsksAndEachDenialOnce(t *testing.T) {
	var out strings.Builder
	p := NewPrinter(&out, false).WithApprovals()
	p.FollowSubagents("root-s")
	env := func(session, parent, agent string, typ messages.EventType, data any) []byte {
		raw, _ := json.Marshal(data)
		b, _ := json.Marshal(messages.Envelope{V: 1, Session: session, Parent: parent, Agent: agent, Type: typ, Data: raw})
		return b
	}
	ask := &messages.ApprovalRequestedData{CallID: "call_0_0", Reason: "ask mode asks before commands",
		Summary: messages.ApprovalSummary{Tool: "bash", Operation: "run", Command: "make"}}
	p.SubagentEvent(env("child-s", "root-s", "root/builder", messages.EventAgentSpawned, &messages.SessionStartedData{}))
	p.SubagentEvent(env("grandchild-s", "child-s", "root/builder/x", messages.EventToolApproval, ask))
	p.SubagentEvent(env("stranger-s", "other", "root", messages.EventToolApproval, ask))
	p.SubagentEvent(env("root-s", "", "root", messages.EventToolApproval, ask)) // the followed session's own come through Event
	got := out.String()
	if strings.Count(got, "waits for approval") != 1 || !strings.Contains(got, "--session grandchild-s call_0_0") || !strings.Contains(got, "(root/builder/x)") {
		t.Fatalf("subagent asks:\n%s", got)
	}

	out.Reset()
	p.Event(env("root-s", "", "root", messages.EventToolRejected, &messages.DecisionData{CallID: "call_1_0", Tool: "bash", Decision: messages.DecisionDenied, Reason: "permission denied: no one to ask"}))
	p.Event(env("root-s", "", "root", messages.EventToolFinished, &messages.ToolFinishedData{CallID: "call_1_0", Tool: "bash", IsError: true, Output: "permission denied: no one to ask"}))
	if n := strings.Count(out.String(), "permission denied"); n != 1 {
		t.Errorf("the denial printed %d times:\n%s", n, out.String())
	}
}
