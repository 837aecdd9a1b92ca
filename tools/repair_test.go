package tools

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/troupe-dev/troupe/internal/testwait"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		raw   string
		want  string       // the object, compacted; "" means a parse error
		kinds []RepairKind // the repairs recorded, in order
	}{
		{`{"a":1}`, `{"a":1}`, nil},
		{`  `, `{}`, nil},
		{`null`, `{}`, nil},
		{`{"a":1,}`, `{"a":1}`, []RepairKind{RepairJSON}},
		{`{a: "x"}`, `{"a":"x"}`, []RepairKind{RepairJSON}},
		{`{"a": [1, 2`, `{"a":[1,2]}`, []RepairKind{RepairJSON}},
		{"```\n{\"a\":1}\n```", `{"a":1}`, []RepairKind{RepairJSON}},
		{`"{\"a\":1}"`, `{"a":1}`, []RepairKind{RepairDoubleEncoded}},
		{`"\"{\\\"a\\\":1}\""`, `{"a":1}`, []RepairKind{RepairDoubleEncoded, RepairDoubleEncoded}},
		{`{'a': 'it\'s "x"'}`, `{"a":"it's \"x\""}`, []RepairKind{RepairPyLiteral}},
		{`{"a": True, "b": False, "c": None}`, `{"a":true,"b":false,"c":null}`, []RepairKind{RepairPyLiteral}},
		{`{"a": "True story", "b": True}`, `{"a":"True story","b":true}`, []RepairKind{RepairPyLiteral}},
		{`{'a': True,}`, `{"a":true}`, []RepairKind{RepairPyLiteral, RepairJSON}},
		{`{"path": "C:\Users\x"}`, `{"path":"C:\\Users\\x"}`, []RepairKind{RepairBackslash}},
		{`{"command": "grep \d+ f"}`, `{"command":"grep \\d+ f"}`, []RepairKind{RepairBackslash}},
		{`{"p": "\u00e9\uZZ"}`, `{"p":"é\\uZZ"}`, []RepairKind{RepairBackslash}},
		{`"just text"`, "", nil},
		{`42`, "", nil},
		{`[1]`, "", nil},
		{`{"a":1} {"b":2}`, "", nil},
	}
	for _, tc := range tests {
		args, repairs, err := parseArgs(tc.raw)
		if tc.want == "" {
			if err == nil {
				t.Errorf("parseArgs(%q) = %s, want an error", tc.raw, args)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseArgs(%q): %v", tc.raw, err)
			continue
		}
		var v any
		if err := json.Unmarshal(args, &v); err != nil {
			t.Errorf("parseArgs(%q) gave invalid JSON %s", tc.raw, args)
		}
		compact, _ := json.Marshal(v)
		if got := kindsOf(repairs); string(compact) != tc.want || !slices.Equal(got, tc.kinds) {
			t.Errorf("parseArgs(%q) = %s repairs=%v, want %s repairs=%v", tc.raw, compact, got, tc.want, tc.kinds)
		}
		for _, r := range repairs {
			if r.Before == "" || r.After == "" || r.Before == r.After {
				t.Errorf("parseArgs(%q): repair %+v lacks a before/after preview", tc.raw, r)
			}
		}
	}
}

func kindsOf(repairs []Repair) []RepairKind {
	var out []RepairKind
	for _, r := range repairs {
		out = append(out, r.Kind)
	}
	return out
}

// TestParseArgsGarbageIsBounded feeds a megabyte of garbage through the whole argument repair:
// it must answer (an error or an object), not hang or panic.
func TestParseArgsGarbageIsBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("{}[]\"',:. \n\\aTNu0123456789")
	garbage := make([]byte, 1<<20)
	for i := range garbage {
		garbage[i] = alphabet[rng.IntN(len(alphabet))]
	}
	inputs := map[string]string{
		"random": string(garbage),
		"open":   strings.Repeat("{", 1<<20),
		"quotes": "{\"a\": \"" + strings.Repeat("\\x", 1<<19),
		"python": "{'a': " + strings.Repeat("True, ", 1<<17),
	}
	for name, raw := range inputs {
		testwait.Returns(t, 60*time.Second, func() { _, _, _ = parseArgs(raw) }, "parseArgs to finish on 1 MB of "+name)
	}
}

func FuzzRepairArgs(f *testing.F) {
	for _, seed := range []string{`{"path":"a"}`, `{'a': True, "b": None}`, `{"path":"C:\x\y"}`,
		`{"arguments":{"file_path":"a","old_str":"x"}}`, `{"command":["ls","-l"],"workdir":"d"}`, `{'a':1,}`, "```json\n{a:1}\n```", `"{\"a\":1}"`, `{"a":"b`, `{{{{`, `"`, "\x00{", `[{"a":1}]`, `{"a":1}}}`,
		`{{"path": "a"}}`, `{"command": "ls", "t": 5{"command": "ls", "t": 5}`, `{"command": "ls</arg_value>\n<arg_key>d</arg_key><arg_value>x</arg_value>`,
		`{"filePath": "a", "startLineNumberBaseZero": 0, "endLineNumberBaseZero": -1}`, `{"pattern": "x", "-A": 3, "output_mode": "content"}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args, _, err := parseArgs(raw)
		if err != nil {
			if err.Error() == "" || args != nil {
				t.Fatalf("error with args: %v %s", err, args)
			}
			return
		}
		var obj map[string]any
		if err := json.Unmarshal(args, &obj); err != nil {
			t.Fatalf("parseArgs(%q) returned non-object %q: %v", raw, args, err)
		}
		// The schema-guided repairs must hold on whatever parsed, for every built-in tool.
		for _, e := range fuzzRegistry.entries {
			var decoded map[string]any
			if err := decodeNumbers(string(args), &decoded); err != nil {
				t.Fatalf("parsed arguments do not decode: %v", err)
			}
			decoded, _ = e.schema.repairObject(decoded, e.spec.PathArgs)
			e.schema.coerce(decoded)
			_ = e.schema.validate(decoded)
		}
		for _, name := range []string{"str_replace_editor", "shell", "MultiEdit", "Grep", "apply_patch"} {
			fuzzRegistry.Resolve(name, raw)
		}
	})
}

var fuzzRegistry = func() *Registry {
	r, err := NewRegistry(Builtins()...)
	if err != nil {
		panic(err)
	}
	return r
}()

func TestBoundText(t *testing.T) {
	var lines strings.Builder
	for range 1000 {
		lines.WriteString("0123456789\n")
	}
	tests := []struct {
		name   string
		in     string
		budget int
	}{
		{"lines", lines.String(), 1000},
		{"one long line", strings.Repeat("x", 5000), 1000},
		{"multibyte", strings.Repeat("é€😀", 1000), 777},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := boundText(tc.in, tc.budget)
			if !cut || len(got) > tc.budget {
				t.Fatalf("cut=%v len=%d, want cut within %d", cut, len(got), tc.budget)
			}
			if !utf8.ValidString(got) {
				t.Errorf("bounded text is not valid UTF-8")
			}
			if !strings.Contains(got, "lines dropped") {
				t.Errorf("no drop marker: %q", got)
			}
			if got[:10] != tc.in[:10] || got[len(got)-10:] != tc.in[len(tc.in)-10:] {
				t.Errorf("head or tail lost")
			}
		})
	}
	if got, cut := boundText("short", 100); cut || got != "short" {
		t.Errorf("text within budget changed: %q", got)
	}
}

func TestPythonLiteralsOnlyWhereValuesBelong(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{'a': True}`, `{"a": true}`},
		{`{"a": [None, False]}`, `{"a": [null, false]}`},
		{`{"a": "x = "True"", "b": 1,}`, `{"a": "x = "True"", "b": 1,}`}, // True inside broken quotes stays
		{`{"a": Truely}`, `{"a": Truely}`},
		{`{"a": x'y'}`, `{"a": x'y'}`},
	}
	for _, tc := range tests {
		if got, _ := pythonToJSON(tc.in); got != tc.want {
			t.Errorf("pythonToJSON(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestCutOff(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`{"a":1}`, false},
		{`{"a":1,}`, false},
		{`{"content":"half a fi`, true},
		{`{"a":[1,2`, true},
		{`{'a': 'half`, true},
		{`Here: {"a":"b"} that's it`, false},
		{"```json\n{\"a\":1}\n```", false},
		{`{"a":"}{"`, true},
		{`no object`, false},
	}
	for _, tc := range tests {
		if got := cutOff(tc.in); got != tc.want {
			t.Errorf("cutOff(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestCutOffWriteIsRefused: a write or a command whose arguments were cut off is not
// completed by repair and run; a read may be.
func TestCutOffWriteIsRefused(t *testing.T) {
	reg := builtinRegistry(t)
	env := newEnv(t)
	for _, c := range []struct{ tool, args string }{
		{"write_file", `{"path":"new.go","content":"package main\n\nfunc main() {`},
		{"bash", `{"command":"rm -rf build/cache`},
	} {
		res := reg.Execute(context.Background(), env, Call{ID: "1", Name: c.tool, Args: c.args})
		if !res.IsError || !res.Rejected {
			t.Errorf("%s: want a rejected error, got %+v", c.tool, res)
		}
		mustContain(t, res.Output, "end early", "nothing was run")
	}
	if _, err := os.Stat(filepath.Join(env.Root, "new.go")); err == nil {
		t.Error("a cut-off write_file created the file")
	}
	writeFiles(t, env.Root, map[string]string{"a.txt": "one\n"})
	res := reg.Execute(context.Background(), env, Call{ID: "1", Name: "read_file", Args: `{"path":"a.txt`})
	if res.IsError {
		t.Errorf("a cut-off read was refused: %s", res.Output)
	}
}

// opencode#6918 (Qwen3-Coder-Next): a garbled repeat of filePath after the real one. The
// object is closed before it; a tail that brings a new key is never dropped.
func TestParseArgsDropsGarbledRepeat(t *testing.T) {
	raw := "{    \"content\": \"My good content....\",\n     \"filePath\": \"/project/snake.sh\",\n     \"filePath\"/project/snake.sh\"\n}"
	args, repairs, err := parseArgs(raw)
	if err != nil || string(args) != "{    \"content\": \"My good content....\",\n     \"filePath\": \"/project/snake.sh\"}" {
		t.Fatalf("got %s %v", args, err)
	}
	if len(repairs) != 1 || repairs[0].Kind != RepairRepeatedArg {
		t.Errorf("repairs %v, want one repeated_arg", repairs)
	}
	if _, ok := dropGarbledRepeat(`{"path": "a", "content"/x"}`); ok {
		t.Error("a tail with a new key was dropped")
	}
}
