package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// echoTool returns its (validated, coerced) arguments.
type echoTool struct{}

func (echoTool) Spec() Spec {
	return Spec{Name: "echo", Description: "echoes its arguments", Risk: RiskRead, PathArgs: []string{"path"},
		Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"count":{"type":"integer"},` +
			`"ratio":{"type":"number"},"flag":{"type":"boolean"},"either":{"type":["integer","string"]},"note":{"type":"string"}},` +
			`"required":["path"],"additionalProperties":false}`)}
}

func (echoTool) Run(_ context.Context, _ *Env, args json.RawMessage) Result {
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return errorResult(err.Error())
	}
	out, _ := json.Marshal(m) // map keys are sorted: a stable rendering
	return Result{Output: string(out)}
}

type panicTool struct{}

func (panicTool) Spec() Spec {
	return Spec{Name: "explode", Description: "panics", Risk: RiskRead, Schema: json.RawMessage(`{"type":"object"}`)}
}
func (panicTool) Run(context.Context, *Env, json.RawMessage) Result { panic("boom") }

// sizedTool returns n bytes of numbered lines under a small budget.
type sizedTool struct{ budget int }

func (s sizedTool) Spec() Spec {
	return Spec{Name: "sized", Description: "prints lines", Risk: RiskRead, MaxResultBytes: s.budget,
		Schema: json.RawMessage(`{"type":"object","properties":{"lines":{"type":"integer"}},"required":["lines"]}`)}
}
func (sizedTool) Run(_ context.Context, _ *Env, args json.RawMessage) Result {
	var a struct{ Lines int }
	_ = json.Unmarshal(args, &a)
	var b strings.Builder
	for i := 1; i <= a.Lines; i++ {
		fmt.Fprintf(&b, "line %05d\n", i)
	}
	return Result{Output: b.String()}
}

// blockingTool waits for its context to end.
type blockingTool struct{ ran *bool }

func (blockingTool) Spec() Spec {
	return Spec{Name: "block", Description: "blocks", Risk: RiskRead, Schema: json.RawMessage(`{"type":"object"}`)}
}
func (b blockingTool) Run(ctx context.Context, _ *Env, _ json.RawMessage) Result {
	*b.ran = true
	<-ctx.Done()
	return errorResult("stopped: " + ctx.Err().Error())
}

func testRegistry(t *testing.T, extra ...Tool) *Registry {
	t.Helper()
	r, err := NewRegistry(append([]Tool{echoTool{}, panicTool{}, sizedTool{budget: 2000}}, extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExecuteArguments(t *testing.T) {
	reg := testRegistry(t)
	tests := []struct {
		name    string
		args    string
		isError bool
		want    []string // substrings of the output
		absent  []string
	}{
		{name: "valid", args: `{"path":"a.go","count":3}`, want: []string{`{"count":3,"path":"a.go"}`}, absent: []string{"repaired"}},
		{name: "empty args mean an empty object", args: ``, isError: true, want: []string{"missing required property 'path'"}},
		{name: "trailing comma", args: `{"path":"a.go","count":3,}`, want: []string{"was repaired (", `"count":3`}},
		{name: "single quotes", args: `{'path': 'a.go'}`, want: []string{"was repaired (", `"path":"a.go"`}},
		{name: "unquoted keys", args: `{path: "a.go", count: 2}`, want: []string{"was repaired (", `"count":2`}},
		{name: "truncated object", args: `{"path":"a.go","note":"half a sent`, want: []string{"was repaired (", `"note":"half a sent"`}},
		{name: "markdown fences", args: "```json\n{\"path\":\"a.go\"}\n```", want: []string{"was repaired (", `"path":"a.go"`}},
		{name: "prose around the object", args: `Here you go: {"path":"a.go"} hope that helps`, want: []string{"was repaired (", `"path":"a.go"`}},
		{name: "JSON string holding JSON", args: `"{\"path\":\"a.go\",\"count\":1}"`, want: []string{"was repaired (", `"count":1`}},
		{name: "unrepairable", args: `{"path": "a.go", "count": 3 4 5 }}}} ]]`, isError: true,
			want: []string{"invalid arguments for echo", "offset", "⟨here⟩", "expected arguments: {path: string, count?: integer, ratio?: number, flag?: boolean, either?: integer|string, note?: string}"}},
		{name: "array instead of object", args: `[1,2]`, isError: true, want: []string{"must be a JSON object, got an array"}},
		{name: "wrong type names the field", args: `{"path":"a.go","count":"many"}`, isError: true, want: []string{"count: got string, want integer"}},
		{name: "missing required", args: `{"count":1}`, isError: true, want: []string{"missing required property 'path'", "expected arguments:"}},
		{name: "unknown property", args: `{"path":"a.go","file_path":"b"}`, isError: true, want: []string{"unknown property 'file_path'"}},
		{name: "integer sent as string", args: `{"path":"a.go","count":"12"}`, want: []string{`"count":12`}},
		{name: "integer sent as 12.0", args: `{"path":"a.go","count":12.0}`, want: []string{`"count":12`}},
		{name: "number sent as string", args: `{"path":"a.go","ratio":" 0.5"}`, want: []string{`"ratio":0.5`}},
		{name: "boolean sent as string", args: `{"path":"a.go","flag":"True"}`, want: []string{`"flag":true`}},
		{name: "null optional dropped", args: `{"path":"a.go","count":null}`, want: []string{`{"path":"a.go"}`}},
		{name: "ambiguous type not coerced", args: `{"path":"a.go","either":"7"}`, want: []string{`"either":"7"`}},
		{name: "non-numeric string stays an error", args: `{"path":"a.go","count":"12abc"}`, isError: true, want: []string{"count: got string, want integer"}},
		{name: "string field not coerced from number", args: `{"path":12}`, isError: true, want: []string{"path: got number, want string"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t) // a fresh session: a repeated failure is answered differently
			res := reg.Execute(context.Background(), env, Call{ID: "1", Name: "echo", Args: tc.args})
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v; output:\n%s", res.IsError, tc.isError, res.Output)
			}
			mustContain(t, res.Output, tc.want...)
			for _, a := range tc.absent {
				if strings.Contains(res.Output, a) {
					t.Errorf("output contains %q:\n%s", a, res.Output)
				}
			}
		})
	}
}

func TestExecuteUnknownTool(t *testing.T) {
	env := newEnv(t)
	res := builtinRegistry(t).Execute(context.Background(), env, Call{Name: "rad_fil", Args: `{}`})
	if !res.IsError || !res.Rejected {
		t.Fatal("an unknown tool must be a rejected error")
	}
	mustContain(t, res.Output, `unknown tool "rad_fil"`, `Did you mean "read_file"?`,
		"Available tools: read_file, write_file, edit_file, list_dir, glob, grep, bash")
	res = builtinRegistry(t).Execute(context.Background(), env, Call{Name: "teleport", Args: `{}`})
	if strings.Contains(res.Output, "Did you mean") {
		t.Errorf("no suggestion expected for a name like no tool: %s", res.Output)
	}
}

func TestExecutePathPolicy(t *testing.T) {
	env := newEnv(t)
	outside := t.TempDir()
	writeFiles(t, env.Root, map[string]string{"inside.txt": "x"})
	writeFiles(t, outside, map[string]string{"secret.txt": "s"})
	mustSymlink(t, outside+"/secret.txt", env.Root+"/link-out")
	mustSymlink(t, outside, env.Root+"/dir-out")
	tests := []struct {
		path string
		ok   bool
		why  string
	}{
		{"inside.txt", true, ""},
		{env.Root + "/inside.txt", true, ""},
		{"sub/new.txt", true, ""},
		{"../x", false, "climbs out of the workspace"},
		{"a/../../x", false, "climbs out of the workspace"},
		{"/etc/passwd", false, "absolute path outside the workspace"},
		{"link-out", false, "symlink along it leads outside"},
		{"/proc/self/root/etc/passwd", false, "under /proc"},
		{"dir-out/secret.txt", false, "symlink along it leads outside"},
		{"dir-out/not-yet.txt", false, "symlink along it leads outside"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"path": tc.path})
			res := testRegistry(t).Execute(context.Background(), env, Call{Name: "echo", Args: string(args)})
			if res.IsError == tc.ok {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, !tc.ok, res.Output)
			}
			if !tc.ok {
				mustContain(t, res.Output, tc.path, tc.why, "only paths inside the workspace")
			}
		})
	}
}

func TestExecutePanicRecovered(t *testing.T) {
	res := testRegistry(t).Execute(context.Background(), newEnv(t), Call{Name: "explode", Args: `{}`})
	if !res.IsError {
		t.Fatal("a panic must be an error result")
	}
	mustContain(t, res.Output, "tool explode panicked: boom")
}

func TestExecuteCancelled(t *testing.T) {
	ran := false
	reg := testRegistry(t, blockingTool{ran: &ran})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := reg.Execute(ctx, newEnv(t), Call{Name: "block", Args: `{}`})
	if !res.IsError || ran {
		t.Fatalf("a cancelled call must not run: ran=%v %+v", ran, res)
	}
	mustContain(t, res.Output, "cancelled before it ran")
}

func TestExecuteBoundsResult(t *testing.T) {
	env := newEnv(t)
	var spilled string
	reg := testRegistry(t)
	reg.SetOverflow(func(_ Call, _ Spec, full string) string {
		spilled = full
		return "whole output kept as artifact a1"
	})
	res := reg.Execute(context.Background(), env, Call{Name: "sized", Args: `{"lines":1000}`})
	if len(res.Output) > 2000 {
		t.Errorf("output is %d bytes, over the 2000-byte budget", len(res.Output))
	}
	mustContain(t, res.Output, "line 00001\n", "line 01000\n", "lines dropped", "[whole output kept as artifact a1]")
	if strings.Count(spilled, "\n") != 1000 {
		t.Errorf("the overflow hook got %d lines, want the whole 1000", strings.Count(spilled, "\n"))
	}
	small := reg.Execute(context.Background(), env, Call{Name: "sized", Args: `{"lines":3}`})
	if small.Output != "line 00001\nline 00002\nline 00003\n" {
		t.Errorf("an output within budget must be untouched: %q", small.Output)
	}
}

func TestExecuteChecksRunBeforeTheTool(t *testing.T) {
	ran := false
	reg := testRegistry(t, blockingTool{ran: &ran})
	var checked []string
	reg.AddCheck(func(_ context.Context, _ *Env, spec Spec, _ json.RawMessage) *Result {
		checked = append(checked, spec.Name)
		res := errorResult("denied by policy")
		return &res
	})
	res := reg.Execute(context.Background(), newEnv(t), Call{Name: "block", Args: `{}`})
	if ran || res.Output != "denied by policy" || len(checked) != 1 {
		t.Fatalf("check did not stop the call: ran=%v res=%+v checked=%v", ran, res, checked)
	}
}

func TestNewRegistryRejects(t *testing.T) {
	bad := func(name, schema string, pathArgs ...string) Tool {
		return specTool{Spec{Name: name, Description: "x", Risk: RiskRead, Schema: json.RawMessage(schema), PathArgs: pathArgs}}
	}
	tests := []struct {
		name  string
		tools []Tool
		want  string
	}{
		{"duplicate", []Tool{echoTool{}, echoTool{}}, "duplicate name"},
		{"bad name", []Tool{bad("has space", `{"type":"object"}`)}, "the name must match"},
		{"schema not JSON", []Tool{bad("t", `{"type":`)}, "parse schema"},
		{"schema does not compile", []Tool{bad("t", `{"type":"object","properties":{"a":{"type":"nope"}}}`)}, "compile schema"},
		{"not an object schema", []Tool{bad("t", `{"type":"string"}`)}, `"type" must be "object"`},
		{"no schema", []Tool{bad("t", ``)}, "no schema"},
		{"path arg not declared", []Tool{bad("t", `{"type":"object"}`, "path")}, `path argument "path"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewRegistry(tc.tools...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

type specTool struct{ spec Spec }

func (s specTool) Spec() Spec                                      { return s.spec }
func (specTool) Run(context.Context, *Env, json.RawMessage) Result { return Result{} }

func TestBuiltinSpecs(t *testing.T) {
	reg := builtinRegistry(t)
	want := []string{"read_file", "write_file", "edit_file", "list_dir", "glob", "grep", "bash"}
	if got := strings.Join(reg.Names(), ","); got != strings.Join(want, ",") {
		t.Fatalf("Names() = %s, want %s", got, strings.Join(want, ","))
	}
	type modelSpec struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"parameters"`
	}
	var specs []modelSpec
	for _, s := range reg.Specs() {
		specs = append(specs, modelSpec{s.Name, s.Description, s.Schema})
	}
	compact, err := json.Marshal(specs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built-in tool specs as the model sees them: %d bytes", len(compact))
	if len(compact) > 6<<10 {
		t.Errorf("the built-in specs are %d bytes as JSON; keep them within 6 KiB", len(compact))
	}
	pretty, _ := json.MarshalIndent(specs, "", "  ")
	golden(t, "builtin_specs.json", string(pretty)+"\n")
}

func TestExecuteConstraintMessages(t *testing.T) {
	env := newEnv(t)
	tests := []struct{ tool, args, want string }{
		{"read_file", `{"path":"a","offset":-2}`, "offset: minimum: got -2, want 1"},
		{"grep", `{"pattern":"x","context":99}`, "context: maximum: got 99, want 10"},
		{"bash", `{"command":{"argv":["ls"]}}`, "command: got object, want string"},
	}
	for _, tc := range tests {
		res := call(t, env, tc.tool, tc.args)
		if !res.IsError {
			t.Errorf("%s %s: want an error, got %s", tc.tool, tc.args, res.Output)
			continue
		}
		mustContain(t, res.Output, tc.want)
	}
}

func TestExecuteConcurrentCalls(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{"f.txt": "one\ntwo\n"})
	reg := testRegistry(t, Builtins()...)
	var wg sync.WaitGroup
	results := make([]Result, 16)
	for i := range results {
		wg.Go(func() {
			if i%2 == 0 {
				results[i] = reg.Execute(context.Background(), env, Call{Name: "read_file", Args: `{"path":"f.txt","offset":"2"}`})
			} else {
				results[i] = reg.Execute(context.Background(), env, Call{Name: "echo", Args: `{path:"f.txt",count:"3",}`})
			}
		})
	}
	wg.Wait()
	for i, res := range results {
		want := "     2\ttwo\n"
		if i%2 == 1 {
			want = `{"count":3,"path":"f.txt"}`
		}
		if res.IsError || !strings.Contains(res.Output, want) {
			t.Errorf("call %d: %+v, want %q", i, res, want)
		}
	}
}
