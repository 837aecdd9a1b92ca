package actors

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// startHookNode starts a Node with hs as its hooks on the scripted provider (in order when
// inOrder, for the compactor's turns).
func startHookNode(t *testing.T, script string, ordered bool, hs ...hooks.Hook) *testNode {
	t.Helper()
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	s, err := llm.ParseScript("hooks", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	var p llm.Provider = llm.NewScriptedFrom(s)
	if ordered {
		p = &inOrder{Provider: p}
	}
	set, warnings := hooks.NewSet(hs)
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	tn := &testNode{provider: &recordingProvider{Provider: p}}
	node, err := StartNode(NodeOptions{Root: root, Hooks: set, Retry: llm.RetryPolicy{MaxAttempts: 1},
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	return tn
}

func hookFinished(tn *testNode, id string) []messages.HookFinishedData {
	return ctxEvents[messages.HookFinishedData](tn, id, messages.EventHookFinished)
}

// PreCompact observes a /compact: it is told the trigger and the focus, and the compaction
// goes on.
func TestPreCompactHookSeesTheManualCompaction(t *testing.T) {
	out := filepath.Join(t.TempDir(), "precompact.json")
	tn := startHookNode(t, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 1 1000"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 5 1005"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 9 1009"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 13 1013"}}]},
		{"text": "ready"}],
		"agents": {"#compactor": {"turns": [{"text": "Summary: printed four ranges of numbers."}]}}}`, true,
		hooks.Hook{Event: hooks.PreCompact, Command: "cat > " + out})
	const id = "c"
	if err := tn.client.StartSession(&messages.StartSession{ID: id, Task: "print numbers", Model: "scripted", Mode: "yolo",
		Workspace: tn.Root, Interactive: true, ContextWindow: 12000}); err != nil {
		t.Fatal(err)
	}
	tn.waitFinals(t, id, 1)
	if ack, err := tn.client.Input(id, "/compact keep the ranges"); err != nil || !strings.Contains(ack.Output, "compaction 1") {
		t.Fatalf("/compact: %+v, %v", ack, err)
	}
	checkFor(t, 30*time.Second, func() error {
		if len(ctxEvents[messages.ContextCompactedData](tn, id, messages.EventContextCompacted)) == 0 || len(hookFinished(tn, id)) == 0 {
			return os.ErrNotExist
		}
		return nil
	})
	var in map[string]any
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &in); err != nil || in["hook_event_name"] != "PreCompact" || in["trigger"] != "manual" || in["custom_instructions"] != "keep the ranges" {
		t.Errorf("PreCompact input %s (%v)", data, err)
	}
	if d := hookFinished(tn, id)[0]; d.Event != "PreCompact" || d.Decision != hooks.DecisionContinue || d.Exit != 0 {
		t.Errorf("hook.finished %+v", d)
	}
	tn.client.Cancel(id, "done")
}

// A subagent's final answer runs SubagentStop (not Stop): a block refuses it and the child
// goes on; the child runs no SessionStart hook; the parent's answer runs Stop.
func TestSubagentStopRefusesTheChildsAnswerOnce(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "refused")
	tn := startHookNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "look", "agent_type": "explorer", "message": "where is alpha?"}}]},
		{"expect": "Subagent results", "text": "parent done"}],
	"agents": {"look": {"turns": [
		{"text": "alpha is somewhere"},
		{"expect": "cite the file", "text": "alpha is at a.txt:1"}]}}}`, false,
		hooks.Hook{Event: hooks.SubagentStop, Command: "test -e " + marker + " && exit 0; touch " + marker + "; echo 'cite the file' >&2; exit 2"},
		hooks.Hook{Event: hooks.Stop, Command: "exit 0"},
		hooks.Hook{Event: hooks.SessionStart, Command: "exit 0"})
	fin := tn.run(t, "p", "go")
	if fin.Status != messages.StatusDone || fin.Final != "parent done" {
		t.Fatalf("parent finished: %+v", fin)
	}
	var parent, child []string
	for _, d := range hookFinished(tn, "p") {
		parent = append(parent, d.Event+":"+d.Decision)
	}
	for _, d := range hookFinished(tn, "p-look") {
		child = append(child, d.Event+":"+d.Decision)
	}
	if strings.Join(parent, " ") != "SessionStart:continue Stop:continue" {
		t.Errorf("parent's hooks %v", parent)
	}
	if strings.Join(child, " ") != "SubagentStop:block SubagentStop:continue" {
		t.Errorf("child's hooks %v", child)
	}
	if r := tn.agentResults("p")["root/look"]; r == nil || r.Summary != "alpha is at a.txt:1" {
		t.Errorf("child's result %+v", r)
	}
}
