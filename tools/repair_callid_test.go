package tools

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// An id where a tool's name belongs (repair_callid.go): the documented id spellings only, the
// arguments decide with the margin, and the call is marked inferred.
func TestCallIDNames(t *testing.T) {
	ids := map[string]bool{
		"call_0": true, "call_12": true, "call_8fK2xQ1mZp0aBcDeFgHiJkLm": true, "toolu_01A09q90qw90lq917835lq9": true,
		"chatcmpl-tool-4f1a9c2e7b": true, "fc_67c9a1b2": true, "tool_call_3": true,
		"call_home": false, "fc_lookup": false, "call": false, "read_file": false, "call_": false, "tool_0": false,
	}
	for name, want := range ids {
		if got := callIDName.MatchString(name); got != want {
			t.Errorf("%s: id %v, want %v", name, got, want)
		}
	}
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct{ name, args, tool, want string }{
		{"call_0", `{"file_path":"a.go"}`, "read_file", `{"path":"a.go"}`},
		{"call_1", `{"directory":"src"}`, "list_dir", `{"path":"src"}`},
		{"toolu_01A09q90", `{"command":"make","timeout":30}`, "bash", `{"command":"make","timeout_s":30}`},
		// below the margin: refused with the reason, never guessed
		{"call_2", `{"path":"src"}`, "", "a call id, not a tool name"},               // a file or a directory
		{"call_3", `{"pattern":"foo"}`, "", "a call id, not a tool name"},            // glob or grep
		{"call_4", `{"name":"x","version":"1.0"}`, "", "a call id, not a tool name"}, // data, not arguments
		{"call_5", `not json`, "", "call_5"},
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		switch {
		case tc.tool == "" && (a.Refusal == "" || !strings.Contains(a.Refusal, tc.want)):
			t.Errorf("%s %s: got %s %s (refusal %q), want refused with %q", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.want)
		case tc.tool != "" && (a.Name != tc.tool || string(a.Args) != tc.want):
			t.Errorf("%s %s: got %s %s (refusal %q), want %s %s", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.tool, tc.want)
		}
	}
	if _, resolved, _, _, stop := reg.admit(env, Call{ID: "1", Name: "call_0", Args: `{"command":"rm -rf build"}`}); stop != nil || !resolved.Inferred {
		t.Errorf("call_0 {command}: inferred %v (stop %v), want an inferred bash call: the gate asks outside yolo", resolved.Inferred, stop)
	}
	if _, resolved, _, _, _ := reg.admit(env, Call{ID: "1", Name: "bash", Args: `{"command":"ls"}`}); resolved.Inferred {
		t.Error("a call by name is not inferred")
	}
	if reg.Knows("call_0") {
		t.Error("an id alone is not a tool the session knows (prose naming call_0 is not a call)")
	}
}

// A repaired call that writes or runs still asks in ask and auto-edit modes: another harness's
// delete, move and copy become the shell command, which bash's gate judges like any other.
func TestRepairedFileOperationsStillAsk(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct{ name, args string }{
		{"delete_file", `{"target_file":"a.go"}`},
		{"delete_path", `{"path":"src"}`},
		{"remove-files", `{"file_paths":["a.go","b.go"]}`},
		{"move_path", `{"source_path":"a.go","destination_path":"b.go"}`},
		{"copy_path", `{"source_path":"a.go","destination_path":"b.go"}`},
		{"call_0", `{"command":"rm -f a.go"}`},
		{"search_replace", `{"file_path":"a.go","old_string":"x","new_string":"y"}`},
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		if a.Refusal != "" {
			t.Errorf("%s %s: refused: %s", tc.name, tc.args, a.Refusal)
			continue
		}
		spec := reg.byName[a.Name].spec
		for _, mode := range []messages.Mode{messages.ModeAsk, messages.ModeAutoEdit} {
			if a.Name == "edit_file" && mode == messages.ModeAutoEdit {
				continue // auto-edit allows workspace edits, repaired or not
			}
			if d, _ := (&Policy{Mode: mode}).Decide(spec, a.Args, nil); d != Ask {
				t.Errorf("%s → %s %s in %s mode: %v, want ask", tc.name, a.Name, a.Args, mode, d)
			}
		}
	}
}
