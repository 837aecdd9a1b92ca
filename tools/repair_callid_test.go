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

// A working directory the command already enters is entered once (aliases_workdir.go).
func TestCdThen(t *testing.T) {
	cases := []struct{ dir, cmd, want string }{
		{"/w", "cd /w && ls", "cd /w && ls"},
		{"/w", "cd /w/ && ls", "cd /w/ && ls"},
		{"/w/", "cd /w; ls", "cd /w; ls"},
		{"sub", "cd ./sub\nls", "cd ./sub\nls"},
		{"my dir", "cd 'my dir' && ls", "cd 'my dir' && ls"},
		{"my dir", `cd "my dir" && ls`, `cd "my dir" && ls`},
		{"sub", "cd sub", "cd sub && cd sub"}, // nothing after it: not a prefix of the command
		{"a", "cd b && ls", "cd a && cd b && ls"},
		{"a", "cd a/b && ls", "cd a && cd a/b && ls"},
		{"a", "cd $A && ls", "cd a && cd $A && ls"},
		{"a", "cd a | ls", "cd a && cd a | ls"},
		{"a", "cdx a && ls", "cd a && cdx a && ls"},
		{"", "ls", "ls"},
		{".", "ls", "ls"},
		{"my dir", "ls", "cd 'my dir' && ls"},
	}
	for _, tc := range cases {
		if got := cdThen(tc.dir, tc.cmd); got != tc.want {
			t.Errorf("cdThen(%q, %q) = %q, want %q", tc.dir, tc.cmd, got, tc.want)
		}
	}
}

// A Python call's positional string literal (search_files('*.py')).
func TestSingleQuoted(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{`'*.py'`, "*.py", true},
		{`'it\'s'`, "it's", true},
		{`'a\\b'`, `a\b`, true},
		{`''`, "", true},
		{`'a', 'b'`, "", false},
		{`"a"`, "", false},
		{`'a`, "", false},
		{`'`, "", false},
	}
	for _, tc := range cases {
		got, ok := singleQuoted(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("singleQuoted(%s) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// The whole call repeated inside its arguments unwraps only when it is exactly a name and a
// wrapper (repair_schema.go).
func TestNamedWrapperUnwraps(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct{ tool, args, want string }{
		{"bash", `{"tool":"bash","args":{"command":"ls"}}`, `{"command":"ls"}`},
		{"read_file", `{"tool_name":"read_file","arguments":"{\"path\":\"a.go\"}"}`, `{"path":"a.go"}`},
		{"bash", `{"tool":"bash","args":{"command":"ls"},"note":"x"}`, ""}, // a third key: not only the call's shape
		{"bash", `{"tool":7,"args":{"command":"ls"}}`, ""},                 // no name
		{"read_file", `{"tool":"read_file","args":{"pattern":"x"}}`, ""},   // nothing read_file takes
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.tool, Args: tc.args})
		switch {
		case tc.want == "" && a.Refusal == "":
			t.Errorf("%s %s: admitted as %s, want refused", tc.tool, tc.args, a.Args)
		case tc.want != "" && (a.Refusal != "" || string(a.Args) != tc.want):
			t.Errorf("%s %s: got %s (refusal %q), want %s", tc.tool, tc.args, a.Args, a.Refusal, tc.want)
		}
	}
}

// A timeout written with its unit, and a command sent as a bare argv array (repair_shell.go,
// repair_scalar.go).
func TestTimeoutUnitsAndBareArgv(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct{ tool, args, want string }{
		{"bash", `{"command":"ls","timeout":"30s"}`, `{"command":"ls","timeout_s":30}`},
		{"bash", `{"command":"ls","timeout":"2 min"}`, `{"command":"ls","timeout_s":120}`},
		{"bash", `{"command":"ls","timeout_s":"1.5m"}`, `{"command":"ls","timeout_s":90}`},
		{"bash", `{"command":"ls","timeout":"120000ms"}`, `{"command":"ls","timeout_s":120}`},
		{"bash", `{"command":"ls","timeout":"1500 milliseconds"}`, `{"command":"ls","timeout_s":2}`},
		{"bash", `{"command":"ls","timeout":"10ms"}`, `{"command":"ls","timeout_s":1}`},
		{"bash", `{"command":"ls","timeout":"90 Seconds"}`, `{"command":"ls","timeout_s":90}`},
		{"bash", `{"command":"ls","timeout":"soon"}`, ""},
		{"bash", `{"command":"ls","timeout":"30 parsecs"}`, ""},
		{"bash", `["ls","-la"]`, `{"command":"ls -la"}`},
		{"bash", `["bash","-lc","ls -R"]`, `{"command":"ls -R"}`},
		{"shell", `["bash","lc","ls -R"]`, `{"command":"ls -R"}`},
		{"bash", `{"argv":["ls","-la"]}`, `{"command":"ls -la"}`},
		{"bash", `[]`, ""},
		{"bash", `["ls", 3]`, ""},
		{"read_file", `["a.go"]`, ""}, // an argv is a command's, never a path list read as one path
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.tool, Args: tc.args})
		switch {
		case tc.want == "" && a.Refusal == "":
			t.Errorf("%s %s: admitted as %s, want refused", tc.tool, tc.args, a.Args)
		case tc.want != "" && (a.Refusal != "" || string(a.Args) != tc.want):
			t.Errorf("%s %s: got %s (refusal %q), want %s", tc.tool, tc.args, a.Args, a.Refusal, tc.want)
		}
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

// A name in quotes or backticks, and Anthropic's versioned tool types (repair_names.go), resolve
// only onto a name resolve maps.
func TestQuotedAndVersionedNames(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct{ name, args, tool string }{
		{"`bash`", `{"command":"ls"}`, "bash"},
		{`"read_file"`, `{"path":"a.go"}`, "read_file"},
		{"“Read”", `{"file_path":"a.go"}`, "read_file"},
		{"bash_20250124", `{"command":"ls"}`, "bash"},
		{"text_editor_20250728", `{"command":"view","path":"a.go"}`, "read_file"},
		{"`nope`", `{"command":"ls"}`, ""},
		{"computer_20241022", `{"action":"screenshot"}`, ""},
		{"bash_2025", `{"command":"ls"}`, ""},
		{"mcp__srv__bash_20250124", `{"command":"ls"}`, ""}, // another server's tool, never ours
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		if a.Name != tc.tool || (tc.tool == "") != (a.Refusal != "") {
			t.Errorf("%s %s: got %q (refusal %q), want %q", tc.name, tc.args, a.Name, a.Refusal, tc.tool)
		}
	}
}
