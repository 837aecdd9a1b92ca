package tools

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestAdmit_ObjectLiteral: arguments written as an unquoted object literal are read with the
// schema's keys as the only boundaries (ccany#3: FileWrite with {path: …, content: …}).
func TestAdmit_ObjectLiteral(t *testing.T) {
	reg, err := NewRegistry(Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Root: "/"}
	cases := []struct {
		name, tool, args string
		want             map[string]any // nil: refused
	}{
		{"ccany-3 as reported", "FileWrite",
			`"{path: example.txt, content: Hello! This is some example text in a file.nnYou can add more content here as needed.}"`,
			map[string]any{"path": "example.txt", "content": "Hello! This is some example text in a file.nnYou can add more content here as needed."}},
		{"commas and colons stay in the value", "write_file", `{path: a.txt, content: one, two: three}`,
			map[string]any{"path": "a.txt", "content": "one, two: three"}},
		{"an alias key is a boundary", "write_file", `{content: a, b, file_path: x.txt}`,
			map[string]any{"path": "x.txt", "content": "a, b"}},
		{"quoted values are unquoted, numbers coerced", "read_file", `{path: 'a.go', limit: 20}`,
			map[string]any{"path": "a.go", "limit": float64(20)}},
		{"a repeated key is never guessed at", "write_file", `{path: a.txt, content: x, world: y, path: b.txt}`, nil},
		{"an unknown first key is not a literal", "write_file", `{name: a.txt, content: x, y}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := reg.Admit(env, Call{ID: "1", Name: c.tool, Args: c.args})
			if c.want == nil {
				if a.Refusal == "" {
					t.Fatalf("admitted %s %s, want a refusal", a.Name, a.Args)
				}
				return
			}
			if a.Refusal != "" {
				t.Fatalf("refused: %s", a.Refusal)
			}
			var got map[string]any
			if err := json.Unmarshal(a.Args, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("args %s, want %v", a.Args, c.want)
			}
		})
	}
}

// TestObjectLiteral_LeavesStructuredValues: a value that opens an object or array, and valid
// JSON, are not read as a literal (the JSON repair handles those).
func TestObjectLiteral_LeavesStructuredValues(t *testing.T) {
	reg, err := NewRegistry(Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	schema := reg.byName["write_file"].schema
	for _, raw := range []string{`{path: a.txt, content: [1, 2]}`, `{"path": "a.txt", "content": "x"}`, `{path: a.txt, content: x`, strings.Repeat("{path: a,", 1000)} {
		if args, _, ok := schema.objectLiteral(raw); ok {
			t.Errorf("objectLiteral(%.40q) = %v, want not a literal", raw, args)
		}
	}
}

// FuzzObjectLiteral: any input is read or refused without panicking, and what is read is an
// object holding only keys the schema knows.
func FuzzObjectLiteral(f *testing.F) {
	for _, seed := range []string{`{path: a.txt, content: x, y}`, `"{path: a, content: b,}"`, `{path: 'a', content: "b"}`, `{,path:}`, `{content: {`} {
		f.Add(seed)
	}
	reg, err := NewRegistry(Builtins()...)
	if err != nil {
		f.Fatal(err)
	}
	schema := reg.byName["write_file"].schema
	f.Fuzz(func(t *testing.T, raw string) {
		args, _, ok := schema.objectLiteral(raw)
		if !ok {
			return
		}
		for k := range args {
			if !schema.knowsArg(k) {
				t.Fatalf("objectLiteral(%q) read unknown key %q", raw, k)
			}
		}
	})
}
