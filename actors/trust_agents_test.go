package actors

import (
	"fmt"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// Eight verifiers in parallel, each running a command that takes a while, all report to their
// parent: none is marked interrupted, none is lost. (Issue 10: results of parallel verifiers
// went missing on a slow machine; a child's result used to travel over the bus while its stop
// reached the parent at once, and a 3 s grace timer then wrote it off as interrupted.)
func TestEightSlowVerifiersAllReport(t *testing.T) {
	const n = 8
	var spawns, handles []string
	for i := 0; i < n; i++ {
		spawns = append(spawns, fmt.Sprintf(`{"name": "spawn_agent", "args": {"task_name": "v%d", "agent_type": "verifier", "message": "does a.txt say alpha?"}}`, i))
		handles = append(handles, fmt.Sprintf("root/v%d", i))
	}
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [`+strings.Join(spawns, ",")+`]},
		{"text": "all verified"}],
	"agents": {"*": {"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "sleep 1; grep -q alpha a.txt"}}]},
		{"text": "a.txt:1 says alpha.\nVERDICT: pass"}]}}}`, AgentLimits{MaxRunning: n}, nil)
	if err := tn.client.StartSession(&messages.StartSession{ID: "v8", Task: "verify", Model: "scripted", Mode: "yolo", Workspace: tn.Root, Yes: true}); err != nil {
		t.Fatal(err)
	}
	if fin := tn.waitFinished(t, "v8"); fin.Status != messages.StatusDone || fin.Final != "all verified" {
		t.Fatalf("parent finished: %+v", fin)
	}
	results := tn.agentResults("v8")
	for _, h := range handles {
		r := results[h]
		if r == nil {
			t.Errorf("%s: no result", h)
			continue
		}
		if r.Status != messages.AgentDone || r.Verdict != "pass" || len(r.Evidence) == 0 || r.Evidence[0].Outcome != "ok" {
			t.Errorf("%s: %+v", h, r)
		}
	}
	// The parent's second call carries all eight results.
	last := lastContent(tn.requestsOf("root")[1])
	for _, h := range handles {
		if !strings.Contains(last, h+" (verifier): done") {
			t.Errorf("the parent's context lacks %s's result", h)
		}
	}
}
