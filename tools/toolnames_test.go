package tools

import (
	"context"
	"encoding/json"
	"github.com/troupe-dev/troupe/internal/nearest"
	"reflect"
	"testing"
)

func sameJSON(t *testing.T, got, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %s: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}

func TestResolveNames(t *testing.T) {
	reg := builtinRegistry(t)
	tests := []struct{ name, want string }{
		{"read_file", "read_file"},
		{"ReadFile", "read_file"},
		{"readFile", "read_file"},
		{"read-file", "read_file"},
		{"READ_FILE", "read_file"},
		{"functions.write_file", "write_file"},
		{"default_api.edit_file", "edit_file"},
		{"tools.list_dir", "list_dir"},
		{"functions.ListDir", "list_dir"},
		{"reed_file", "read_file"},  // one edit, every other tool far
		{"edit_fille", "edit_file"}, // one edit
		{"list_directory", "list_dir"},
		// a namespace with any separator, when the rest is exactly a tool or a known alias
		{"repo---read_file", "read_file"},
		{"files:write_file", "write_file"},
		{"proxy/bash", "bash"},
		{"workspace.Grep", "grep"},
		{"a.b/list_dir", "list_dir"},
		{"claude_code---Bash", "bash"},
		// a name written twice over by a client that appended a repeated streamed name
		{"read_fileread_file", "read_file"},
		{"exec_commandexec_command", "bash"},
		{"exec_command.exec_command", "bash"},
		{"functions.bashbash", "bash"},
		// Llama 3.1's built-in tool syntax on a custom tool
		{"read_file.call", "read_file"},
		{"functions.bash.call", "bash"},
	}
	for _, tc := range tests {
		got, args, ok := reg.Resolve(tc.name, `{"x":1}`)
		if !ok || got != tc.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
		if tc.name == tc.want && args != `{"x":1}` {
			t.Errorf("Resolve(%q) changed the arguments of a registered tool: %s", tc.name, args)
		}
	}
	for _, name := range []string{"", "teleport", "mcp__fs__read_file", "rad_fil", "writ", "file", "edit_fiel_x",
		"mcp__fs__bash", "ns---teleport", "ns:reed_fil", "x/", "a b:read_file", "teleportteleport", "mcp__fs__bashmcp__fs__bash"} {
		if got, _, ok := reg.Resolve(name, `{}`); ok {
			t.Errorf("Resolve(%q) = %q, want no mapping", name, got)
		}
	}
}

// TestResolveMargin: a typo equally near two tools is not guessed.
func TestResolveMargin(t *testing.T) {
	reg, err := NewRegistry(argsTool{name: "list_a", schema: `{"type":"object"}`}, argsTool{name: "list_b", schema: `{"type":"object"}`})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, ok := reg.Resolve("list_c", `{}`); ok {
		t.Errorf("list_c resolved to %s between list_a and list_b", got)
	}
	if _, ok := nearest.WithMargin("ab", []string{"ac", "zz"}); ok {
		t.Error("one edit on a two-letter name is not certain... it is half the name")
	}
}

func TestResolveHarnessTools(t *testing.T) {
	reg := builtinRegistry(t)
	tests := []struct {
		harness, name, args, tool, want string
	}{
		{"claude", "Read", `{"file_path":"a.go","offset":3,"limit":5}`, "read_file", `{"file_path":"a.go","offset":3,"limit":5}`},
		{"claude", "Write", `{"file_path":"a.go","content":"x"}`, "write_file", `{"file_path":"a.go","content":"x"}`},
		{"claude", "Edit", `{"file_path":"a","old_string":"x","new_string":"y"}`, "edit_file", `{"file_path":"a","old_string":"x","new_string":"y"}`},
		{"claude", "MultiEdit", `{"file_path":"a","edits":[{"old_string":"x","new_string":"y"}]}`, "edit_file", `{"file_path":"a","old_string":"x","new_string":"y"}`},
		{"claude", "Bash", `{"command":"ls","timeout":120500,"description":"list","run_in_background":true}`, "bash", `{"command":"ls","timeout_s":121,"background":true}`},
		{"claude", "Grep", `{"pattern":"foo","path":"src","-i":true,"-C":2,"type":"go","output_mode":"content"}`, "grep", `{"pattern":"(?i)foo","path":"src","context":2,"glob":"*.go"}`},
		{"claude", "Glob", `{"pattern":"**/*.go","path":"src"}`, "glob", `{"pattern":"**/*.go","path":"src"}`},
		{"claude", "LS", `{"path":"src","ignore":["x"]}`, "list_dir", `{"path":"src"}`},
		{"claude (early)", "GrepTool", `{"pattern":"class Base\\(","path":"."}`, "grep", `{"pattern":"class Base\\(","path":"."}`},
		{"claude (early)", "GlobTool", `{"pattern":"**/*.go"}`, "glob", `{"pattern":"**/*.go"}`},
		{"codex", "shell", `{"command":["bash","-lc","go test ./..."],"workdir":"sub","timeout_ms":1000}`, "bash", `{"command":"cd sub && go test ./...","timeout_s":1}`},
		{"codex", "shell", `{"command":["grep","-rn","it's here","."]}`, "bash", `{"command":"grep -rn 'it'\\''s here' ."}`},
		{"codex", "apply_patch", `{"input":"*** Begin Patch\n*** Add File: a/b.txt\n+one\n+two\n*** End Patch"}`, "write_file", `{"path":"a/b.txt","content":"one\ntwo\n"}`},
		{"codex", "shell", `{"command":["apply_patch","*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch"]}`, "write_file", `{"path":"n.txt","content":"hi\n"}`},
		{"codex", "apply_patch", `{"input":"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch"}`, "edit_file", `{"path":"a","old_string":"x","new_string":"y"}`},
		{"gemini", "read_file", `{"absolute_path":"/w/a.go"}`, "read_file", `{"absolute_path":"/w/a.go"}`},
		{"gemini", "replace", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":1}`, "edit_file", `{"file_path":"a","old_string":"x","new_string":"y"}`},
		{"gemini", "run_shell_command", `{"command":"make","directory":"my dir","description":"build"}`, "bash", `{"command":"cd 'my dir' && make"}`},
		{"gemini", "search_file_content", `{"pattern":"x","include":"*.go"}`, "grep", `{"pattern":"x","include":"*.go"}`},
		{"gemini", "list_directory", `{"path":"src","ignore":["*.o"]}`, "list_dir", `{"path":"src"}`},
		{"gemini", "glob", `{"pattern":"*.go"}`, "glob", `{"pattern":"*.go"}`},
		{"openhands", "str_replace_editor", `{"command":"view","path":"a.go","view_range":[5,9]}`, "read_file", `{"path":"a.go","offset":5,"limit":5}`},
		{"openhands", "str_replace_editor", `{"command":"view","path":"src/"}`, "list_dir", `{"path":"src/"}`},
		{"openhands", "str_replace_editor", `{"command":"create","path":"a","file_text":"x"}`, "write_file", `{"path":"a","file_text":"x"}`},
		{"openhands", "str_replace_editor", `{"command":"str_replace","path":"a","old_str":"x","new_str":"y"}`, "edit_file", `{"path":"a","old_str":"x","new_str":"y"}`},
		{"openhands", "execute_bash", `{"command":"ls","is_input":"false"}`, "bash", `{"command":"ls"}`},
		{"openhands", "execute_command", `{"command":"ls"}`, "bash", `{"command":"ls"}`},
		{"continue", "create_new_file", `{"filepath":"test.txt","contents":"hello"}`, "write_file", `{"filepath":"test.txt","contents":"hello"}`},
		{"continue", "run_terminal_command", `{"command":"ls","waitForCompletion":true}`, "bash", `{"command":"ls"}`},
		{"continue", "ls", `{"dirPath":"src","recursive":false}`, "list_dir", `{"dirPath":"src","depth":1}`}, // top level only
		{"continue", "grep_search", `{"query":"x"}`, "grep", `{"query":"x"}`},
		{"continue", "file_glob_search", `{"pattern":"*.go"}`, "glob", `{"pattern":"*.go"}`},
		{"codex", "shell", `{"command":"[\"powershell\", \"-Command\", \"Get-Location\"]"}`, "bash", `{"command":"powershell -Command Get-Location"}`},
		{"goose", "developer__text_editor", `{"command":"write","path":"/tmp/a","file_text":"x"}`, "write_file", `{"path":"/tmp/a","file_text":"x"}`},
		{"goose", "developer__shell", `{"command":"ls"}`, "bash", `{"command":"ls"}`},
		{"goose", "filesystem__directory_tree", `{"path":"/home/u/pscore"}`, "list_dir", `{"path":"/home/u/pscore","depth":5}`},
		{"mcp-filesystem", "read_text_file", `{"path":"a.go","head":10}`, "read_file", `{"path":"a.go","limit":10}`},
		{"mcp-filesystem", "search_files", `{"path":"src","pattern":"*.go","excludePatterns":["x"]}`, "glob", `{"path":"src","pattern":"*.go"}`},
		{"hermes", "search_files", `{"pattern":"TODO","path":"src","file_glob":"*.tsx"}`, "grep", `{"pattern":"TODO","path":"src","glob":"*.tsx"}`},
		{"hermes", "search_files", `{"pattern":"*.md","target":"files"}`, "glob", `{"pattern":"**/*.md"}`},
		{"hermes", "search_files", `{"pattern":"docs/*.md","target":"files"}`, "glob", `{"pattern":"docs/*.md"}`},
		{"hermes", "search_files", `{"pattern":"func main"}`, "grep", `{"pattern":"func main"}`},
		{"openclaw", "exec", `{"command":"ls"}`, "bash", `{"command":"ls"}`},
		{"codex", "exec_command", `{"cmd":"ls"}`, "bash", `{"command":"ls"}`},
		{"codex", "exec_command", `{"cmd":"go test ./...","workdir":"sub","yield_time_ms":10000,"max_output_tokens":4000,"login":true,"shell":"/bin/bash","sandbox_permissions":"use_default"}`,
			"bash", `{"command":"cd sub && go test ./..."}`},
		{"codex", "exec_command", `{"cmd":"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch\nEOF\n"}`, "write_file", `{"path":"n.txt","content":"hi\n"}`},
		{"codex", "shell_command", `{"command":"ls","workdir":"sub","timeout_ms":2000,"justification":"x"}`, "bash", `{"command":"cd sub && ls","timeout_s":2}`},
		{"codex", "local_shell", `{"command":["bash","-l","-c","ls"]}`, "bash", `{"command":"ls"}`},
		{"swe-agent", "cat", `{"file":"a"}`, "read_file", `{"file":"a"}`},
		{"swe-agent", "view", `{"path":"a","view_range":[3,-1]}`, "read_file", `{"path":"a","offset":3}`},
		{"crush", "view", `{"file_path":"./Cargo.toml"}`, "read_file", `{"path":"./Cargo.toml"}`},
		{"swe-agent", "open_file", `{"path":"a","line_number":4}`, "read_file", `{"path":"a","line_number":4}`},
		{"swe-agent", "create_file", `{"filename":"a","content":"x"}`, "write_file", `{"filename":"a","content":"x"}`},
		{"swe-agent", "run", `{"cmd":"ls"}`, "bash", `{"cmd":"ls"}`},
		{"swe-agent", "terminal", `{"command":"ls"}`, "bash", `{"command":"ls"}`},
		{"swe-agent", "find_file", `{"file_name":"main.go","dir":"src"}`, "glob", `{"pattern":"**/main.go","dir":"src"}`},
		{"swe-agent", "search_dir", `{"search_term":"a.b(","dir":"src"}`, "grep", `{"pattern":"a\\.b\\(","dir":"src"}`},
		{"folded", "multi_edit", `{"file_path":"a","edits":[{"old_string":"x","new_string":"y"}]}`, "edit_file", `{"file_path":"a","old_string":"x","new_string":"y"}`},
	}
	for _, tc := range tests {
		got, args, ok := reg.Resolve(tc.name, tc.args)
		if !ok || got != tc.tool {
			t.Errorf("%s %s: Resolve = %q, %v; want %s", tc.harness, tc.name, got, ok, tc.tool)
			continue
		}
		if !sameJSON(t, args, tc.want) {
			t.Errorf("%s %s: args %s, want %s", tc.harness, tc.name, args, tc.want)
		}
	}
}

// TestResolveRefusals: mappings that are not certain are refused with a precise reason, and
// Execute says so without running anything.
func TestResolveRefusals(t *testing.T) {
	reg := builtinRegistry(t)
	tests := []struct{ name, args, want string }{
		{"MultiEdit", `{"file_path":"a","edits":[{"old_string":"x","new_string":"y"},{"old_string":"p","new_string":"q"}]}`, "call edit_file once per edit"},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Delete File: a\n*** End Patch"}`, "delete it with bash: rm a"},
		{"replace", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":3}`, "no equivalent"},
		{"str_replace_editor", `{"command":"insert","path":"a","insert_line":3,"new_str":"x"}`, "insert is not supported"},
		{"str_replace_editor", `{"command":"undo_edit","path":"a"}`, "undo_edit is not supported"},
		{"str_replace_editor", `["view","a"]`, "cannot read the arguments"},
		{"execute_bash", `{"command":"y","is_input":true}`, "sending input to a running command"},
		{"Bash", `{"command":"ls","timeout":"soon"}`, "milliseconds"},
	}
	for _, tc := range tests {
		if got, _, ok := reg.Resolve(tc.name, tc.args); ok {
			t.Errorf("Resolve(%s) = %s, want a refusal", tc.name, got)
			continue
		}
		env := newEnv(t)
		writeFiles(t, env.Root, map[string]string{"a": "x\np\n"})
		res := reg.Execute(context.Background(), env, Call{ID: "1", Name: tc.name, Args: tc.args})
		if !res.IsError || !res.Rejected {
			t.Errorf("%s: want a rejected error, got %+v", tc.name, res)
		}
		mustContain(t, res.Output, tc.want, "cannot be used here")
		if got := readFileT(t, env.Root+"/a"); got != "x\np\n" {
			t.Errorf("%s: the file changed: %q", tc.name, got)
		}
	}
	// A mapping to a tool the session lacks is refused, not sent elsewhere.
	readOnly, err := NewRegistry(readFile{}, listDir{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, ok := readOnly.Resolve("Write", `{"file_path":"a","content":"x"}`); ok {
		t.Errorf("Write resolved to %s in a session without write_file", got)
	}
}

// TestExecuteHarnessCall runs a Claude Code style call end to end: the tool name and the
// argument names are repaired, the file is written and both repairs are recorded.
func TestExecuteHarnessCall(t *testing.T) {
	env := newEnv(t)
	res := builtinRegistry(t).Execute(context.Background(), env, Call{ID: "1", Name: "Write", Args: `{"file_path":"n.txt","content":"hi\n"}`})
	if res.IsError {
		t.Fatalf("error: %s", res.Output)
	}
	if got := readFileT(t, env.Root+"/n.txt"); got != "hi\n" {
		t.Errorf("wrote %q", got)
	}
	kinds := kindsOf(res.Repairs)
	if len(kinds) != 2 || kinds[0] != RepairToolName || kinds[1] != RepairArgAlias {
		t.Errorf("Repairs = %+v, want tool_name then arg_alias", res.Repairs)
	}
	mustContain(t, res.Output, "tool_name Write→write_file", "arg_alias file_path→path")
}

func TestKnows(t *testing.T) {
	reg := builtinRegistry(t)
	for _, name := range []string{"read_file", "ReadFile", "Bash", "str_replace_editor", "MultiEdit", "functions.grep"} {
		if !reg.Knows(name) {
			t.Errorf("Knows(%q) = false", name)
		}
	}
	for _, name := range []string{"teleport", "mcp__x__y", "", "Hello"} {
		if reg.Knows(name) {
			t.Errorf("Knows(%q) = true", name)
		}
	}
}

// TestMappedCallFailureNamesTheMapping: when a mapped call's arguments are invalid, the error
// says which of our tools the name became, so the model can read the schema it is shown.
func TestMappedCallFailureNamesTheMapping(t *testing.T) {
	res := builtinRegistry(t).Execute(context.Background(), newEnv(t), Call{ID: "1", Name: "Edit", Args: `{"file_path":"a"}`})
	if !res.IsError || !res.Rejected {
		t.Fatalf("want a rejected error: %+v", res)
	}
	mustContain(t, res.Output, "(Edit is edit_file here.) invalid arguments for edit_file", "missing required properties")
	if kinds := kindsOf(res.Repairs); len(kinds) == 0 || kinds[0] != RepairToolName {
		t.Errorf("Repairs = %+v, want the tool_name repair first", res.Repairs)
	}
}

// GLM put a whole text call in the structured call's name (zai-org/GLM-5#84): the call it
// holds is read and resolved; a name with text but also real arguments is not guessed at.
func TestResolveCallInName(t *testing.T) {
	reg := builtinRegistry(t)
	name := "read<arg_key>filePath</arg_key><arg_value>/home/linj/wk/ebay_exam</arg_value>"
	res, ok := reg.resolve(name, "")
	if !ok || res.name != "read_file" || !sameJSON(t, res.args, `{"filePath":"/home/linj/wk/ebay_exam"}`) {
		t.Fatalf("got %+v %v, want read_file with filePath", res, ok)
	}
	if res.repairs[0].Kind != RepairTextFormat {
		t.Errorf("first repair is %s, want text_format", res.repairs[0].Kind)
	}
	if _, ok := reg.resolve(name, `{"path":"other"}`); ok {
		t.Error("a name holding a call was resolved although the arguments field disagrees")
	}
	if _, ok := reg.resolve("read<b>bold</b>", ""); ok {
		t.Error("markup that holds no call was resolved")
	}
}

// gpt-oss leaks harmony tokens into the tool name (vllm#32587, ollama#11704): the word of the
// name that is a tool wins; with none, the one tool that accepts the arguments as sent; with
// two candidates, nothing.
func TestResolveLeakedTokens(t *testing.T) {
	reg := builtinRegistry(t)
	for _, tc := range []struct{ name, args, want string }{
		{"read_file<|channel|>commentary", `{"path":"a"}`, "read_file"},
		{"assistant<|channel|>bash<|channel|>commentary", `{"command":"ls"}`, "bash"},
		{"assistant<|channel|>analysis", `{"command":"./test"}`, "bash"},
		{"assistant<|channel|>analysis", `{"path":"a"}`, ""},             // read_file and list_dir both accept it
		{"assistant<|channel|>analysis", `{"command":"x","nope":1}`, ""}, // no tool accepts it as sent
	} {
		res, ok := reg.resolve(tc.name, tc.args)
		if got := map[bool]string{true: res.name, false: ""}[ok]; got != tc.want {
			t.Errorf("resolve(%q, %s) = %q, want %q (refusal %q)", tc.name, tc.args, got, tc.want, res.refusal)
		}
	}
}
