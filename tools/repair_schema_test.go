package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// argsTool echoes the validated arguments of a schema given per test.
type argsTool struct {
	name, schema string
	paths        []string
}

func (a argsTool) Spec() Spec {
	return Spec{Name: a.name, Description: "echoes", Risk: RiskRead, PathArgs: a.paths, Schema: json.RawMessage(a.schema)}
}

func (argsTool) Run(_ context.Context, _ *Env, args json.RawMessage) Result {
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	out, _ := json.Marshal(m)
	return Result{Output: string(out)}
}

// lastLine is the tool's own output, after any repair note.
func lastLine(s string) string { return s[strings.LastIndexByte(s, '\n')+1:] }

// TestRepairKindsRecorded drives each argument repair kind through Execute and checks the
// call ran with the repaired arguments and Result.Repairs records the kind.
func TestRepairKindsRecorded(t *testing.T) {
	listSchema := `{"type":"object","properties":{"path":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},` +
		`"opts":{"type":"object"},"n":{"type":"integer"},"on":{"type":"boolean"}},"required":["path"],"additionalProperties":false}`
	reg, err := NewRegistry(argsTool{name: "t", schema: listSchema, paths: []string{"path"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args, want string
		kind             RepairKind
	}{
		{"json", `{"path":"a",}`, `{"path":"a"}`, RepairJSON},
		{"double encoded", `"{\"path\":\"a\"}"`, `{"path":"a"}`, RepairDoubleEncoded},
		{"wrapper arguments", `{"arguments":{"path":"a"}}`, `{"path":"a"}`, RepairWrapper},
		{"wrapper input", `{"input":{"path":"a"}}`, `{"path":"a"}`, RepairWrapper},
		{"wrapper parameters as string", `{"parameters":"{\"path\":\"a\"}"}`, `{"path":"a"}`, RepairWrapper},
		{"wrapper args with name", `{"name":"t","args":{"path":"a"}}`, `{"path":"a"}`, RepairWrapper},
		{"python literal", `{'path': 'a', 'on': True}`, `{"on":true,"path":"a"}`, RepairPyLiteral},
		{"backslash invalid escape", `{"path":"src\dir\x.go"}`, `{"path":"src/dir/x.go"}`, RepairBackslash},
		{"backslash valid escapes", `{"path":"src\new\file.go"}`, `{"path":"src/new/file.go"}`, RepairBackslash},
		{"coercion string to integer", `{"path":"a","n":"3"}`, `{"n":3,"path":"a"}`, RepairCoercion},
		{"coercion string to boolean", `{"path":"a","on":"false"}`, `{"on":false,"path":"a"}`, RepairCoercion},
		{"coercion scalar to array", `{"path":"a","tags":"x"}`, `{"path":"a","tags":["x"]}`, RepairCoercion},
		{"coercion JSON string to array", `{"path":"a","tags":"[\"x\",\"y\"]"}`, `{"path":"a","tags":["x","y"]}`, RepairCoercion},
		{"coercion JSON string to object", `{"path":"a","opts":"{\"k\":1}"}`, `{"opts":{"k":1},"path":"a"}`, RepairCoercion},
		{"arg alias", `{"file_path":"a"}`, `{"path":"a"}`, RepairArgAlias},
		{"arg alias generic camel case", `{"Path":"a"}`, `{"path":"a"}`, RepairArgAlias},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := reg.Execute(context.Background(), newEnv(t), Call{ID: "1", Name: "t", Args: tc.args})
			if res.IsError {
				t.Fatalf("error: %s", res.Output)
			}
			if got := lastLine(res.Output); got != tc.want {
				t.Errorf("ran with %s, want %s", got, tc.want)
			}
			if !slices.Contains(kindsOf(res.Repairs), tc.kind) {
				t.Errorf("Repairs = %+v, want one of kind %s", res.Repairs, tc.kind)
			}
		})
	}
}

// TestRepairRefusesToGuess: what the schema does not make unambiguous is left for validation
// to report, never turned into a different call.
func TestRepairRefusesToGuess(t *testing.T) {
	reg := builtinRegistry(t)
	tests := []struct{ name, tool, args, want string }{
		{"alias when canonical present", "write_file", `{"path":"a","content":"x","text":"y"}`, "unknown property 'text'"},
		{"wrapper beside other args", "write_file", `{"path":"a","arguments":{"content":"x"}}`, "unknown property 'arguments'"},
		{"wrapper of unknown keys", "write_file", `{"input":{"zzz":"x"}}`, "missing required properties"},
		{"boolean is not a string", "edit_file", `{"path":"a","old_string":"x","replace":true}`, "new_string: got boolean, want string"},
		{"object is not one array element", "grep", `{"pattern":{"a":1}}`, "pattern: got object, want string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			writeFiles(t, env.Root, map[string]string{"a": "x\n"})
			res := reg.Execute(context.Background(), env, Call{ID: "1", Name: tc.tool, Args: tc.args})
			if !res.IsError || !res.Rejected {
				t.Fatalf("want a rejected error, got %+v", res)
			}
			mustContain(t, res.Output, tc.want)
			if got := readFileT(t, env.Root+"/a"); got != "x\n" {
				t.Errorf("the file changed: %q", got)
			}
		})
	}
}

// TestArgAliases checks every alias against the built-in tool that declares its target.
func TestArgAliases(t *testing.T) {
	tool := map[string]string{
		"path": "read_file", "offset": "read_file", "limit": "read_file", "command": "bash",
		"timeout_s": "bash", "background": "bash", "old_string": "edit_file", "new_string": "edit_file",
		"replace_all": "edit_file", "content": "write_file", "pattern": "grep", "glob": "grep",
		"context": "grep", "depth": "list_dir",
	}
	reg := builtinRegistry(t)
	for alias, targets := range argAliases {
		target := targets[0]
		e := reg.byName[tool[target]]
		if e == nil {
			t.Fatalf("no built-in tool declares %s (alias %s)", target, alias)
		}
		args := map[string]any{alias: "v"}
		repairs := e.schema.renameAliases(args)
		if _, ok := args[target]; !ok || len(repairs) != 1 || repairs[0].Kind != RepairArgAlias {
			t.Errorf("alias %s on %s: args %v, repairs %+v; want %s", alias, e.spec.Name, args, repairs, target)
		}
	}
	// The spellings named in the brief, as models send them.
	for spelling, want := range map[string]string{
		"filePath": "path", "file_path": "path", "FILENAME": "path", "path_to_file": "path",
		"target_file": "path", "commandLine": "command", "oldText": "old_string", "new_str": "new_string",
		"file_text": "content", "search_pattern": "pattern", "max_lines": "limit", "start_line": "offset",
		"oldString": "old_string", "replaceAll": "replace_all", "timeout": "timeout_s",
	} {
		found := false
		for _, e := range reg.entries {
			args := map[string]any{spelling: "v"}
			if e.schema.renameAliases(args); args[want] != nil {
				found = true
			}
		}
		if !found {
			t.Errorf("%s is not resolved to %s by any built-in tool", spelling, want)
		}
	}
}

// A misspelt argument name is read as the name it is one edit from, with a clear margin
// (gemini-cli#6989); a name near none, or near two, is left for the schema error to report.
func TestMisspeltArgumentNames(t *testing.T) {
	reg := builtinRegistry(t)
	cases := []struct {
		tool, key, want string
	}{
		{"read_file", "absolutea_path", "path"},
		{"edit_file", "old_strnig", "old_string"},
		{"bash", "commnad", "command"},
		{"read_file", "show_bash_commands", ""},
		{"bash", "timeout_ms", ""}, // milliseconds are not seconds: no rename
		{"read_file", "pth", ""},   // too short to read as a typo
	}
	for _, tc := range cases {
		args := map[string]any{tc.key: "v"}
		reg.byName[tc.tool].schema.renameAliases(args)
		got := ""
		for k := range args {
			if k != tc.key {
				got = k
			}
		}
		if got != tc.want {
			t.Errorf("%s %s: renamed to %q, want %q", tc.tool, tc.key, got, tc.want)
		}
	}
}

func TestEndLineBecomesLimit(t *testing.T) {
	reg := builtinRegistry(t)
	e := reg.byName["read_file"]
	args := map[string]any{"path": "a", "start_line": json.Number("10"), "end_line": json.Number("19")}
	e.schema.renameAliases(args)
	if args["offset"] != json.Number("10") || args["limit"] != json.Number("10") || args["end_line"] != nil {
		t.Errorf("got %v, want offset 10 limit 10", args)
	}
}

// MiniMax-M3#31: the XML-ish form carries the line numbers as text.
func TestEndLineAsTextBecomesLimit(t *testing.T) {
	reg := builtinRegistry(t)
	args := map[string]any{"path": "a", "start_line": "130", "end_line": "165"}
	reg.byName["read_file"].schema.renameAliases(args)
	if args["offset"] != "130" || args["limit"] != json.Number("36") || args["end_line"] != nil {
		t.Errorf("got %v, want offset 130 (coerced later) and limit 36", args)
	}
}

func TestWindowsPath(t *testing.T) {
	for in, want := range map[string]string{
		"src\new\file.go": `src/new/file.go`,
		`a\b\c`:           "a/b/c",
		`C:\Users\x`:      `C:\Users\x`,
		"C:\new":          `C:\new`,
		`\\server\share`:  `\\server\share`,
		"plain/path.go":   "plain/path.go",
	} {
		if got, _ := windowsPath(in); got != want {
			t.Errorf("windowsPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOpenSchemaKeepsUndeclaredArguments: a schema that accepts undeclared properties takes
// them as sent; only a missing required argument makes an alias certain.
func TestOpenSchemaKeepsUndeclaredArguments(t *testing.T) {
	reg, err := NewRegistry(
		argsTool{name: "open", schema: `{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}}}`},
		argsTool{name: "needs", schema: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ tool, args, want string }{
		{"open", `{"text":"x","file":"a"}`, `{"file":"a","text":"x"}`},
		{"open", `{"arguments":{"path":"a"}}`, `{"arguments":{"path":"a"}}`},
		{"needs", `{"file":"a","text":"x"}`, `{"path":"a","text":"x"}`},
		{"needs", `{"arguments":{"path":"a"}}`, `{"path":"a"}`},
	}
	for _, tc := range tests {
		res := reg.Execute(context.Background(), newEnv(t), Call{ID: "1", Name: tc.tool, Args: tc.args})
		if res.IsError || lastLine(res.Output) != tc.want {
			t.Errorf("%s %s: got %s, want %s", tc.tool, tc.args, res.Output, tc.want)
		}
	}
}

// opencode's bash requires a description (pwilkin/llama.cpp#9, Qwen3-Coder-Next): ours has
// none, and a note never changes what the command does, so it is dropped, and only as text.
func TestDescriptionNoteIsDropped(t *testing.T) {
	reg := builtinRegistry(t)
	bash := reg.byName["bash"].schema
	args := map[string]any{"command": "git status", "description": "Check git status"}
	if repairs := bash.dropNotes(args); len(repairs) != 1 || repairs[0].Kind != RepairDroppedNote || args["description"] != nil {
		t.Errorf("got %v %v, want description dropped", args, repairs)
	}
	odd := map[string]any{"command": "ls", "description": map[string]any{"x": 1}}
	if repairs := bash.dropNotes(odd); len(repairs) != 0 || odd["description"] == nil {
		t.Errorf("a non-text description was dropped: %v", odd)
	}
}

// anomalyco/opencode#946: a JSON file's content sent as the object itself is written as its
// text; the same object for another string argument is left for validation to refuse.
func TestContentObjectBecomesText(t *testing.T) {
	reg := builtinRegistry(t)
	args := map[string]any{"path": "about.json", "content": map[string]any{"title": "about project"}}
	reg.byName["write_file"].schema.coerce(args)
	if args["content"] != `{"title":"about project"}` {
		t.Errorf("content = %#v, want its JSON text", args["content"])
	}
	grep := map[string]any{"pattern": map[string]any{"a": json.Number("1")}}
	reg.byName["grep"].schema.coerce(grep)
	if _, still := grep["pattern"].(map[string]any); !still {
		t.Errorf("a pattern object was turned into text: %#v", grep["pattern"])
	}
}
