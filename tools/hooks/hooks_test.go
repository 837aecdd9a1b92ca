package hooks

import (
	"encoding/json"
	"strings"
	"testing"
)

func set(t *testing.T, hs ...Hook) *Set {
	t.Helper()
	s, warnings := NewSet(hs)
	if len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	return s
}

func TestMatchingOurNamesAndClaudeCodes(t *testing.T) {
	s := set(t,
		Hook{Event: PreToolUse, Matcher: "bash", Command: "a"},
		Hook{Event: PreToolUse, Matcher: "Edit|Write", Command: "b"},
		Hook{Event: PreToolUse, Matcher: "Read", Command: "c"},
		Hook{Event: PreToolUse, Command: "d"},
		Hook{Event: PreToolUse, Matcher: "*", Command: "e"},
		Hook{Event: PostToolUse, Matcher: "bash", Command: "f"},
		Hook{Event: PreToolUse, Matcher: "bash", Command: "g", Skipped: "untrusted"},
		Hook{Event: Stop, Matcher: "nothing", Command: "h"},
	)
	for _, c := range []struct {
		event Event
		tool  string
		want  string
	}{
		{PreToolUse, "bash", "a d e"},
		{PreToolUse, "edit_file", "b d e"},
		{PreToolUse, "write_file", "b d e"},
		{PreToolUse, "read_file", "c d e"},
		{PreToolUse, "read_artifact", "d e"}, // "Read" is a whole name, not a prefix
		{PreToolUse, "grep", "d e"},
		{PostToolUse, "bash", "f"},
		{PostToolUse, "grep", ""},
		{Stop, "", "h"}, // a matcher means nothing to an event about no tool
	} {
		var got []string
		for _, h := range s.Matching(c.event, c.tool) {
			got = append(got, h.Command)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s %s: %v, want %s", c.event, c.tool, got, c.want)
		}
	}
	if !s.Wants(Stop) || s.Wants(SessionEnd) {
		t.Errorf("Wants: Stop %v SessionEnd %v", s.Wants(Stop), s.Wants(SessionEnd))
	}
	if len(s.All()) != 8 {
		t.Errorf("All lists %d hooks, want the 8 with the skipped one", len(s.All()))
	}
}

func TestNewSetRefusesBadHooksWithAWarning(t *testing.T) {
	s, warnings := NewSet([]Hook{
		{Event: "PreToolUs", Command: "x", Source: "f"},
		{Event: PreToolUse, Command: " ", Source: "f"},
		{Event: PreToolUse, Matcher: "(", Command: "x", Source: "f"},
		{Event: PreToolUse, Command: "x", TimeoutS: -1, Source: "f"},
		{Event: PreToolUse, Command: "ok", Source: "f"},
	})
	if len(warnings) != 4 || len(s.All()) != 1 {
		t.Fatalf("warnings %q, %d hooks kept", warnings, len(s.All()))
	}
	for i, want := range []string{"unknown event", "no command", "not a regular expression", "negative"} {
		if !strings.Contains(warnings[i], want) {
			t.Errorf("warning %d = %q, want %q", i, warnings[i], want)
		}
	}
}

func TestClaudeTranslationBothWays(t *testing.T) {
	root := "/work/p"
	for _, c := range []struct {
		tool, ours, name, theirs string
	}{
		{"edit_file", `{"path":"a/b.go","old_string":"x","new_string":"y"}`, "Edit", `{"file_path":"/work/p/a/b.go","new_string":"y","old_string":"x"}`},
		{"write_file", `{"path":"n.txt","content":"c"}`, "Write", `{"content":"c","file_path":"/work/p/n.txt"}`},
		{"read_file", `{"path":"r.go","offset":3,"limit":10}`, "Read", `{"file_path":"/work/p/r.go","limit":10,"offset":3}`},
		{"bash", `{"command":"ls","timeout_s":5,"background":true}`, "Bash", `{"command":"ls","run_in_background":true,"timeout":5000}`},
		{"grep", `{"pattern":"x","path":"src","context":2}`, "Grep", `{"-C":2,"path":"/work/p/src","pattern":"x"}`},
		{"glob", `{"pattern":"*.go"}`, "Glob", `{"pattern":"*.go"}`},
		{"spawn_agent", `{"task":"t"}`, "spawn_agent", `{"task":"t"}`},
	} {
		name, got := ToClaude(c.tool, json.RawMessage(c.ours), root)
		if name != c.name || string(got) != c.theirs {
			t.Errorf("ToClaude(%s) = %s %s, want %s %s", c.tool, name, got, c.name, c.theirs)
		}
		back := FromClaude(c.tool, got, root)
		var a, b any
		json.Unmarshal(back, &a)
		json.Unmarshal([]byte(c.ours), &b)
		if ja, _ := json.Marshal(a); string(ja) != mustJSON(b) {
			t.Errorf("FromClaude(%s) = %s, want %s", c.tool, back, c.ours)
		}
	}
	// A path outside the workspace stays absolute, for the path policy to refuse.
	if got := FromClaude("edit_file", json.RawMessage(`{"file_path":"/etc/passwd"}`), root); !strings.Contains(string(got), `"/etc/passwd"`) {
		t.Errorf("outside path: %s", got)
	}
	// Bash's milliseconds round up to whole seconds.
	if got := FromClaude("bash", json.RawMessage(`{"command":"x","timeout":1500,"description":"d"}`), root); string(got) != `{"command":"x","timeout_s":2}` {
		t.Errorf("bash back: %s", got)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestInputJSONPerHookKind(t *testing.T) {
	in := Input{SessionID: "s1", Cwd: "/p", Event: PostToolUse, Tool: "edit_file",
		Args: json.RawMessage(`{"path":"a.go","old_string":"x","new_string":"y"}`), CallID: "c1", Output: "edited"}
	var ours, theirs map[string]any
	json.Unmarshal(in.JSON(Hook{}), &ours)
	json.Unmarshal(in.JSON(Hook{Claude: true}), &theirs)
	if ours["tool_name"] != "edit_file" || ours["tool_input"].(map[string]any)["path"] != "a.go" {
		t.Errorf("ours: %v", ours)
	}
	if theirs["tool_name"] != "Edit" || theirs["tool_input"].(map[string]any)["file_path"] != "/p/a.go" {
		t.Errorf("theirs: %v", theirs)
	}
	if r := theirs["tool_response"].(map[string]any); r["filePath"] != "/p/a.go" || r["success"] != true {
		t.Errorf("claude tool_response: %v", r)
	}
	for _, k := range []string{"session_id", "cwd", "hook_event_name", "tool_use_id"} {
		if ours[k] == nil {
			t.Errorf("missing %s in %v", k, ours)
		}
	}
	var stop map[string]any
	json.Unmarshal(Input{Event: Stop}.JSON(Hook{}), &stop)
	if stop["stop_hook_active"] != false {
		t.Errorf("Stop input lacks stop_hook_active: %v", stop)
	}
}
