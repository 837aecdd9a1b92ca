package tools

import (
	"strings"
	"testing"
)

// One call standing for several becomes those calls, in order, as our tools with our
// arguments (each then admitted as usual); anything not list-shaped, or any element that
// cannot be mapped, is not split. Shapes from the tools' own documentation: the MCP
// filesystem server (read_multiple_files paths, edit_file edits [{oldText, newText}]), Gemini
// CLI's read_many_files, Claude Code's MultiEdit, Codex's apply_patch grammar, Cline's and
// Roo's SEARCH/REPLACE diff.
func TestSplitListShapedCalls(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	patch := "*** Begin Patch\n*** Update File: a.go\n@@\n-x := 1\n+x := 2\n@@ func b\n-y := 1\n+y := 2\n*** Add File: b.txt\n+hi\n*** End Patch"
	cases := []struct {
		name, args string
		want       []string // "tool args" per piece, admitted; nil = not split
	}{
		{"read_multiple_files", `{"paths": ["a.go", "b.go"]}`, []string{`read_file {"path":"a.go"}`, `read_file {"path":"b.go"}`}},
		{"read_many_files", `{"paths": ["a.go"]}`, []string{`read_file {"path":"a.go"}`}},
		{"read_file", `{"paths": ["a.go", "b.go"]}`, []string{`read_file {"path":"a.go"}`, `read_file {"path":"b.go"}`}},
		{"bash", `{"commands": [{"command": "ls"}, {"command": "pwd"}]}`, []string{`bash {"command":"ls"}`, `bash {"command":"pwd"}`}},
		{"run_shell_command", `{"commands": ["make", "make test"]}`, []string{`bash {"command":"make"}`, `bash {"command":"make test"}`}},
		{"MultiEdit", `{"file_path": "a.go", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d", "replace_all": true}]}`,
			[]string{`edit_file {"path":"a.go","old_string":"a","new_string":"b"}`, `edit_file {"path":"a.go","old_string":"c","new_string":"d","replace_all":true}`}},
		{"MultiEdit", `{"file_path": "a.go", "edits": "[{\"old_string\": \"a\", \"new_string\": \"b\"}]"}`, []string{`edit_file {"path":"a.go","old_string":"a","new_string":"b"}`}},
		{"edit_file", `{"path": "a.go", "edits": [{"oldText": "a", "newText": "b"}], "dryRun": false}`, []string{`edit_file {"path":"a.go","old_string":"a","new_string":"b"}`}},
		{"apply_patch", `{"input": ` + jsonString(patch) + `}`, []string{`edit_file {"path":"a.go","old_string":"x := 1","new_string":"x := 2"}`,
			`edit_file {"path":"a.go","old_string":"y := 1","new_string":"y := 2"}`, `write_file {"path":"b.txt","content":"hi\n"}`}},
		{"replace_in_file", `{"path": "a.go", "diff": "------- SEARCH\nx := 1\n=======\nx := 2\n+++++++ REPLACE\n\n------- SEARCH\ny := 1\n=======\ny := 2\n+++++++ REPLACE"}`,
			[]string{`edit_file {"path":"a.go","old_string":"x := 1","new_string":"x := 2"}`, `edit_file {"path":"a.go","old_string":"y := 1","new_string":"y := 2"}`}},
		{"apply_diff", `{"path": "a.go", "diff": "<<<<<<< SEARCH\n:start_line:3\n-------\nx := 1\n=======\nx := 2\n>>>>>>> REPLACE"}`,
			[]string{`edit_file {"path":"a.go","old_string":"x := 1","new_string":"x := 2"}`}},
		// arguments sent as concatenated objects (a client appending repeated streamed deltas):
		// the same object twice is one call, different objects one call each
		{"bash", `{"command": "ls"}{"command": "ls"}`, []string{`bash {"command":"ls"}`}},
		{"Bash", `{"command":"ls"} {"command":"pwd"}`, []string{`bash {"command":"ls"}`, `bash {"command":"pwd"}`}},
		{"Read", `{"file_path":"a.go"}{"file_path":"a.go"}`, []string{`read_file {"path":"a.go"}`}},
		{"Read", `{"paths":["a.go","b.go"]}{"file_path":"c.go"}`, []string{`read_file {"path":"a.go"}`, `read_file {"path":"b.go"}`, `read_file {"path":"c.go"}`}},
		{"teleport", `{"x": 1}{"x": 2}`, nil},
		{"mcp__fs__read_file", `{"path": "a"}{"path": "b"}`, nil},
		{"bash", `{"command": "ls"}{"command": `, nil},
		{"bash", `{"command": "ls"}["pwd"]`, nil},
		// not list-shaped, or not all of it mappable: left to the usual mapping
		{"read_file", `{"path": "a.go"}`, nil},
		{"Bash", `{"command": "ls"}`, nil},
		{"bash", `{"commands": [{"cmd": 3}]}`, nil},
		{"apply_patch", `{"input": ` + jsonString("*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch") + `}`, nil},
		{"apply_patch", `{"input": ` + jsonString(strings.Replace(patch, "*** Add File: b.txt\n+hi", "*** Delete File: c.go", 1)) + `}`, nil},
		{"replace_in_file", `{"path": "a.go", "diff": "------- SEARCH\nx\n=======\ny\n"}`, nil},
		{"teleport", `{"paths": ["a"]}`, nil},
		{"mcp__fs__read_multiple_files", `{"paths": ["a"]}`, nil},
	}
	for _, tc := range cases {
		pieces, ok := reg.Split(tc.name, tc.args)
		if tc.want == nil {
			if ok {
				t.Errorf("%s %s: split into %v, want no split", tc.name, tc.args, pieces)
			}
			continue
		}
		if !ok || len(pieces) != len(tc.want) {
			t.Errorf("%s %s: got %v (%v), want %d pieces", tc.name, tc.args, pieces, ok, len(tc.want))
			continue
		}
		for i, p := range pieces {
			a := reg.Admit(env, Call{ID: "1", Name: p.Name, Args: p.Args})
			wantName, wantArgs, _ := strings.Cut(tc.want[i], " ")
			if a.Refusal != "" || a.Name != wantName || !sameJSON(t, string(a.Args), wantArgs) {
				t.Errorf("%s piece %d: admitted as %s %s (refusal %q), want %s", tc.name, i+1, a.Name, a.Args, a.Refusal, tc.want[i])
			}
		}
	}
}

func jsonString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// The Cline, Roo and Kilo tools map to ours with their arguments translated.
func TestClineTools(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct{ name, args, tool, want string }{
		{"execute_command", `{"command": "npm test", "requires_approval": "false"}`, "bash", `{"command":"npm test"}`},
		{"execute_command", `{"command": "ls", "cwd": "sub dir"}`, "bash", `{"command":"cd 'sub dir' && ls"}`},
		{"write_to_file", `{"path": "a.txt", "content": "x", "line_count": "1"}`, "write_file", `{"path":"a.txt","content":"x"}`},
		{"replace_in_file", `{"path": "a.go", "diff": "------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE"}`, "edit_file", `{"path":"a.go","old_string":"old","new_string":"new"}`},
		{"list_files", `{"path": "src", "recursive": "true"}`, "list_dir", `{"path":"src","depth":5}`},
		{"list_files", `{"path": "src"}`, "list_dir", `{"path":"src","depth":1}`},
		{"search_files", `{"path": "src", "regex": "TODO", "file_pattern": "*.go"}`, "grep", `{"path":"src","pattern":"TODO","glob":"*.go"}`},
		{"search_and_replace", `{"path": "a.go", "search": "foo", "replace": "bar"}`, "edit_file", `{"path":"a.go","old_string":"foo","new_string":"bar","replace_all":true}`},
		{"search_and_replace", `{"path": "a.go", "search": "f.o", "replace": "bar", "use_regex": true}`, "", ""},
		{"replace_in_file", `{"path": "a.go", "diff": "------- SEARCH\n=======\nnew\n+++++++ REPLACE"}`, "", ""},
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		switch {
		case tc.want == "" && a.Refusal == "":
			t.Errorf("%s %s: admitted as %s %s, want refused", tc.name, tc.args, a.Name, a.Args)
		case tc.want != "" && (a.Refusal != "" || a.Name != tc.tool || !sameJSON(t, string(a.Args), tc.want)):
			t.Errorf("%s %s: got %s %s (refusal %q), want %s %s", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.tool, tc.want)
		}
	}
}

// A whole call nested in an action payload is that call; wcgw's tools map to ours; a payload
// that is only arguments is unwrapped like any wrapper.
func TestNestedActionPayloads(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	split := []struct{ name, args, want string }{
		{"execute_action", `{"action": "{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}"}`, `read_file {"path":"a.go"}`},
		{"act", `{"action_json": {"tool": "Bash", "args": {"command": "ls", "description": "list"}}, "thread_id": "t1"}`, `bash {"command":"ls"}`},
		{"FileWriteOrEdit", `{"file_path": "a.go", "percentage_to_change": 10, "text_or_search_replace_blocks": "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nz\n=======\nw\n>>>>>>> REPLACE"}`,
			`edit_file {"path":"a.go","old_string":"x","new_string":"y"}`},
		{"ReadFiles", `{"file_paths": ["a.go", "b.go"]}`, `read_file {"path":"a.go"}`},
	}
	for _, tc := range split {
		pieces, ok := reg.Split(tc.name, tc.args)
		if !ok {
			t.Errorf("%s %s: not split", tc.name, tc.args)
			continue
		}
		a := reg.Admit(env, Call{ID: "1", Name: pieces[0].Name, Args: pieces[0].Args})
		wantName, wantArgs, _ := strings.Cut(tc.want, " ")
		if a.Refusal != "" || a.Name != wantName || !sameJSON(t, string(a.Args), wantArgs) {
			t.Errorf("%s: first piece admitted as %s %s (refusal %q), want %s", tc.name, a.Name, a.Args, a.Refusal, tc.want)
		}
	}
	admitted := []struct{ name, args, tool, want string }{
		{"BashCommand", `{"action_json": "{\"command\": \"go test ./...\"}", "thread_id": "t1", "wait_for_seconds": 30}`, "bash", `{"command":"go test ./...","timeout_s":30}`},
		{"BashCommand", `{"action_json": {"send_text": "y"}}`, "", ""},
		{"FileWriteOrEdit", `{"file_path": "a.txt", "percentage_to_change": 100, "text_or_search_replace_blocks": "hello\n"}`, "write_file", `{"path":"a.txt","content":"hello\n"}`},
		{"bash", `{"action_json": "{\"command\": \"ls\"}"}`, "bash", `{"command":"ls"}`},
	}
	for _, tc := range admitted {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		switch {
		case tc.want == "" && a.Refusal == "":
			t.Errorf("%s %s: admitted as %s %s, want refused", tc.name, tc.args, a.Name, a.Args)
		case tc.want != "" && (a.Refusal != "" || a.Name != tc.tool || !sameJSON(t, string(a.Args), tc.want)):
			t.Errorf("%s %s: got %s %s (refusal %q), want %s %s", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.tool, tc.want)
		}
	}
	if _, ok := reg.Split("mcp__x__act", `{"action": {"name": "bash", "arguments": {"command": "ls"}}}`); ok {
		t.Error("an MCP server's tool was read as a nested call to bash")
	}
}
