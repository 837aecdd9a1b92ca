package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

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
	cases := []admitRow{
		{"bash", `{"tool":"bash","args":{"command":"ls"}}`, `{"command":"ls"}`},
		{"read_file", `{"tool_name":"read_file","arguments":"{\"path\":\"a.go\"}"}`, `{"path":"a.go"}`},
		{"bash", `{"tool":"bash","args":{"command":"ls"},"note":"x"}`, ""}, // a third key: not only the call's shape
		{"bash", `{"tool":7,"args":{"command":"ls"}}`, ""},                 // no name
		{"read_file", `{"tool":"read_file","args":{"pattern":"x"}}`, ""},   // nothing read_file takes
	}
	checkAdmits(t, reg, env, cases)
}

// A timeout written with its unit, and a command sent as a bare argv array (repair_shell.go,
// repair_scalar.go).
func TestTimeoutUnitsAndBareArgv(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []admitRow{
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
	checkAdmits(t, reg, env, cases)
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

// Values in another shape than the schema's string (repair_values.go, repair_shell.go's
// command lists): changed only where the meaning is certain. A wrapper holding plain text
// ({"args": "…"}) stays refused: salvaged markup (<args>see … below</args>) reads that way.
func TestValueShapes(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []admitRow{
		{"bash", `{"command":["npm install","npm test"]}`, `{"command":"npm install \u0026\u0026 npm test"}`},
		{"bash", `{"command":["git status"]}`, `{"command":"git status"}`},
		{"bash", `{"command":["ls","-la"]}`, `{"command":"ls -la"}`},
		{"bash", `{"command":["/opt/My App/run","-x"]}`, `{"command":"'/opt/My App/run' -x"}`},
		{"bash", `{"command":{"command":"ls"}}`, `{"command":"ls"}`},
		{"bash", `{"command":{"cmd":"ls"}}`, `{"command":"ls"}`},
		{"read_file", `{"file":{"path":"a.go"}}`, `{"path":"a.go"}`},
		{"bash", `{"command":{"x":"ls"}}`, ""},
		{"bash", `{"command":{"command":"ls","cwd":"a"}}`, ""},
		{"bash", `{"args":"see <command>ls</command> below"}`, ""},
		{"write_file", `{"path":"a.txt","content":["one","two"]}`, `{"content":"one\ntwo\n","path":"a.txt"}`},
		{"write_file", `{"path":"d.json","content":["a",1]}`, `{"content":"[\"a\",1]","path":"d.json"}`},
		{"write_file", `{"path":"a.txt","content":["a",1]}`, ""},
		{"grep", `{"pattern":"foo","glob":["*.go","*.ts"]}`, `{"glob":"{*.go,*.ts}","pattern":"foo"}`},
		{"grep", `{"pattern":"foo","glob":["*.{go,ts}","*.md"]}`, ""},
	}
	checkAdmits(t, reg, env, cases)
}

// The rules of this file stay bounded on a hostile megabyte: admission returns (admitted or
// refused) within the scaled bound whatever the shape.
func TestValueShapesHostileMegabyte(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	const mb = 1 << 20
	quoted := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	hostile := map[string][2]string{
		"command lines":  {"bash", `{"command": [` + strings.Repeat(`"a b",`, mb/6) + `"c d"]}`},
		"content lines":  {"write_file", `{"path": "a.txt", "content": [` + strings.Repeat(`"x",`, mb/4) + `"y"]}`},
		"globs":          {"grep", `{"pattern": "x", "glob": [` + strings.Repeat(`"*.go",`, mb/7) + `"*.md"]}`},
		"cd prefix":      {"execute_command", `{"cwd": "a", "command": ` + quoted("cd "+strings.Repeat("a", mb)+" && ls") + `}`},
		"quoted cd":      {"bash", `{"cwd": "a", "command": ` + quoted("cd '"+strings.Repeat("a", mb)) + `}`},
		"duration":       {"bash", `{"command": "ls", "timeout": ` + quoted(strings.Repeat("9", mb)+"s") + `}`},
		"huge number":    {"read_file", `{"path": "a", "offset": ` + strings.Repeat("9", mb) + `}`},
		"huge digits":    {"read_file", `{"path": "a", "limit": ` + quoted(strings.Repeat("9", mb)) + `}`},
		"nested command": {"bash", `{"command": {"command": ` + quoted(strings.Repeat("x", mb)) + `}}`},
		"call id":        {"call_" + strings.Repeat("1", mb), `{"command": "ls"}`},
		"quoted name":    {"`" + strings.Repeat("b", mb) + "`", `{"command": "ls"}`},
		"versioned name": {strings.Repeat("a", mb) + "_20250124", `{"command": "ls"}`},
		"argv":           {"bash", `[` + strings.Repeat(`"a",`, mb/4) + `"b"]`},
		"positional":     {"search_files", quoted("'" + strings.Repeat("*", mb) + "'")},
	}
	for name, call := range hostile {
		t.Run(name, func(t *testing.T) {
			testwait.Returns(t, 20*time.Second, func() { reg.Admit(env, Call{ID: "1", Name: call[0], Args: call[1]}) }, "admission of a hostile 1 MB call")
		})
	}
}
