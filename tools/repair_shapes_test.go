package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// The argument shapes of issue 20's development misses are read only where the schema makes
// the meaning certain; the near misses below stay as sent (and are refused or run unchanged).
func TestMangledArgumentsLeftAlone(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	for _, tc := range []struct{ name, args, want string }{
		// a fused key is only read when it was given nothing and names an argument
		{"bash", `{"cmd=pwd": "ls"}`, "refused"},
		{"bash", `{"command": "ls", "cmd=pwd": ""}`, "refused"}, // the argument is there: which one was meant is unknown
		{"read_file", `{"color=red": "", "path": "a.go"}`, "refused"},
		// an escaped object needs every quote escaped
		{"read_file", `{\\"path\\": \\"a.go\\"}`, "refused"}, // two backslashes: no escaping makes it
		// quotes inside a path are the name's own; content is unwrapped only beside a wrapped path
		{"read_file", `{"path": "\"a\".go"}`, `{"path":"\"a\".go"}`},
		{"write_file", `{"path": "a.txt", "content": "\"\"\"doc\"\"\""}`, `{"path":"a.txt","content":"\"\"\"doc\"\"\""}`},
		{"write_file", `{"path": "\"a.txt\"", "content": "\"hi"}`, `{"path":"a.txt","content":"\"hi"}`},
		// a bare word is dropped only where no JSON reading places it
		{"bash", `{"command": "echo "hi" there"}`, `{"command":"echo \"hi\" there"}`}, // the library's reading of unescaped quotes
		{"read_file", `{"path": a.go}`, `{"path":"a.go"}`},                            // an unquoted value is read, not dropped
		{"read_file", `{"path": "a.go", limit: 5}`, `{"path":"a.go","limit":5}`},      // an unquoted key too
		// a cut anywhere but in a note is still refused
		{"bash", `{"command": "rm -rf build && ma`, "refused"},
		{"write_file", `{"path": "a.txt", "content": "hel`, "refused"},
		{"bash", `{"description": "List", "command": "ls -l`, "refused"},
		{"bash", `{"command": "ls", "env": {"description": "x`, "refused"}, // not a top-level note
		// another tool's name among the arguments is not the tool's own: left for validation
		{"bash", `{"command": "ls", "tool": "read_file"}`, "refused"},
		// Agent Zero's other runtimes have no equivalent
		{"code_execution_tool", `{"runtime": "python", "code": "print(1)"}`, "refused"},
		{"code_execution_tool", `{"runtime": "output"}`, "refused"},
		{"code_execution_tool", `{"code": "ls"}`, "refused"},
	} {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		switch {
		case tc.want == "refused" && a.Refusal == "":
			t.Errorf("%s %s admitted as %s %s, want refused", tc.name, tc.args, a.Name, a.Args)
		case tc.want != "refused" && a.Refusal != "":
			t.Errorf("%s %s refused: %s", tc.name, tc.args, a.Refusal)
		case tc.want != "refused" && !sameJSON(t, string(a.Args), tc.want):
			t.Errorf("%s %s admitted with %s, want %s", tc.name, tc.args, a.Args, tc.want)
		}
	}
}

// A tool_code body with a positional value is read only when it is that one call: a script
// calling a module's function is not a tool call.
func TestToolCodePositionalOnlyWhole(t *testing.T) {
	reg := builtinRegistry(t)
	for _, raw := range []string{
		`import os
os.listdir(".")`,
		`x = read_file("a.go")`,
		`read_file("a.go")
bash("ls")`,
	} {
		if pieces, ok := reg.Split("tool_code", raw); ok {
			t.Errorf("%q split into %v", raw, pieces)
		}
	}
}

// FuzzMangledArguments: the escaped-object and fused-key readings never panic, and what they
// admit is an object.
func FuzzMangledArguments(f *testing.F) {
	reg := builtinRegistry(f)
	env := &Env{Root: f.TempDir()}
	for _, seed := range [][2]string{
		{"read", `{{\\\"filePath\\\":\\\"a.go\\\\"}}`},
		{"bash", `{\"command\": \"ls\"}`},
		{"exec_command", `{"cmd=pwd\n</parameter": ""}`},
		{"write", `{"filePath": "\"a\"", "content": "\"\"\"x\n\"\""}`},
		{"read_file", `{"args": [{"file": {"path": "a.go"}}]}`},
		{"code_execution_tool", `{"tool_args": {"runtime": "terminal", "code": "ls"}}`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, name, raw string) {
		a := reg.Admit(env, Call{ID: "1", Name: name, Args: raw})
		if a.Refusal == "" && (len(a.Args) == 0 || a.Args[0] != '{') {
			t.Fatalf("%s %q admitted with arguments %s", name, raw, a.Args)
		}
		reg.Split(name, raw)
	})
}

// A 1 MB hostile text in each new shape is read in bounded time.
func TestMangledArgumentsHostileMegabyte(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	const mb = 1 << 20
	hostile := map[string][2]string{
		"escaped quotes":   {"read_file", `{\"path\": \"` + strings.Repeat(`\\\\\"`, mb/6)},
		"escaped braces":   {"read_file", strings.Repeat("{", mb/2) + `\"` + strings.Repeat("}", mb/2)},
		"fused key":        {"bash", `{"command ` + strings.Repeat("a </parameter", mb/14) + `": ""}`},
		"fused keys":       {"bash", "{" + strings.Repeat(`"cmd=x": "", `, mb/13) + `"a": ""}`},
		"quoted content":   {"write_file", `{"path": "\"a\"", "content": "` + strings.Repeat(`\"`, mb/2) + `"}`},
		"roo nesting":      {"read_file", `{"args": ` + strings.Repeat(`{"file": `, mb/9) + `{"path": "a"}` + strings.Repeat("}", mb/9) + "}"},
		"tool_code lines":  {"tool_code", strings.Repeat(`read_file("a")`+"\n", mb/15)},
		"stray words":      {"read_file", "{" + strings.Repeat(`"a": {"b": 1, x}, `, mb/18) + `"path": "a"}`},
		"cut note":         {"bash", `{"command": "ls", "description": "` + strings.Repeat(`a\"`, mb/3)},
		"cut nested":       {"bash", strings.Repeat(`{"a": [`, mb/7)},
		"touch paths":      {"touch", `{"paths": [` + strings.Repeat(`"a b", `, mb/7) + `"c"]}`},
		"agent zero large": {"code_execution_tool", `{"tool_args": {"runtime": "terminal", "code": "` + strings.Repeat("x", mb) + `"}}`},
	}
	for name, call := range hostile {
		t.Run(name, func(t *testing.T) {
			testwait.Returns(t, 20*time.Second, func() {
				reg.Admit(env, Call{ID: "1", Name: call[0], Args: call[1]})
				reg.Split(call[0], call[1])
			}, "a hostile 1 MB argument text")
		})
	}
}

// A call these rules repaired into one that writes still asks in ask mode: the resolved
// tool and arguments are what the gate judges.
func TestRepairedWritesStillAsk(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	policy := &Policy{Mode: messages.ModeAsk}
	for _, c := range []Call{
		{ID: "1", Name: "touch", Args: `{"filePath": "a.go"}`},
		{ID: "2", Name: "create_directory", Args: `{"path": "src"}`},
		{ID: "3", Name: "move_file", Args: `{"source": "a.go", "destination": "b.go"}`},
		{ID: "4", Name: "write", Args: `{"filePath": "\"a.txt\"", "content": "\"hi\""}`},
		{ID: "5", Name: "exec_command", Args: `{"cmd=rm -rf build\n</parameter": ""}`},
		{ID: "6", Name: "code_execution_tool", Args: `{"tool_args": {"runtime": "terminal", "code": "make"}}`},
		{ID: "7", Name: "bash", Args: `{"command": "make install", "description": "Inst`},
	} {
		a := reg.Admit(env, c)
		if a.Refusal != "" {
			t.Fatalf("%s %s refused: %s", c.Name, c.Args, a.Refusal)
		}
		spec, _ := reg.Spec(a.Name)
		if d, why := policy.Decide(spec, a.Args, nil); d != Ask {
			t.Errorf("%s %s became %s %s, decided %s (%s), want ask", c.Name, c.Args, a.Name, a.Args, d, why)
		}
	}
}

// A path that starts with '-' is an operand of the file operation it becomes, never an option.
func TestFileOperationPathsAreNeverOptions(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	for _, tc := range []struct {
		call Call
		want string
	}{
		{Call{ID: "1", Name: "touch", Args: `{"path": "-rf"}`}, `touch ./-rf`},
		{Call{ID: "2", Name: "create_directory", Args: `{"path": "--help"}`}, `mkdir -p ./--help`},
		{Call{ID: "3", Name: "move_file", Args: `{"source": "-a b", "destination": "c"}`}, `mv './-a b' c`},
		{Call{ID: "4", Name: "touch", Args: `{"path": "notes-1.md"}`}, `touch notes-1.md`},
	} {
		a := reg.Admit(env, tc.call)
		if a.Refusal != "" {
			t.Fatalf("%s %s refused: %s", tc.call.Name, tc.call.Args, a.Refusal)
		}
		var got struct{ Command string }
		if err := json.Unmarshal([]byte(a.Args), &got); err != nil || got.Command != tc.want {
			t.Errorf("%s %s became %s %s, want command %q", tc.call.Name, tc.call.Args, a.Name, a.Args, tc.want)
		}
	}
}
