package tools

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPrepare measures the argument step (parse, repair, coerce, validate, path policy)
// on a typical valid call and on calls that need each kind of repair.
func BenchmarkPrepare(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	env := &Env{Root: root, TempDir: b.TempDir()}
	reg := builtinRegistry(b)
	cases := []struct{ name, tool, args string }{
		{"valid", "edit_file", `{"path":"a.go","old_string":"package a","new_string":"package b"}`},
		{"trailing_comma", "edit_file", `{"path":"a.go","old_string":"package a","new_string":"package b",}`},
		{"python", "edit_file", `{'path': 'a.go', 'old_string': 'package a', 'new_string': 'package b', 'replace_all': False}`},
		{"double_encoded", "edit_file", `"{\"path\":\"a.go\",\"old_string\":\"package a\",\"new_string\":\"package b\"}"`},
		{"aliases_wrapper", "edit_file", `{"arguments":{"filePath":"a.go","old_str":"package a","new_str":"package b"}}`},
		{"coercion", "read_file", `{"path":"a.go","offset":"2","limit":"10"}`},
		{"invalid", "edit_file", `{"path":"a.go","old_string":"x"}`},
	}
	for _, c := range cases {
		e := reg.byName[c.tool]
		call := Call{ID: "1", Name: c.tool, Args: c.args}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _, _ = reg.prepare(env, e, call)
			}
		})
	}
}

// BenchmarkResolve measures tool-name repair: a registered name, a spelling variant and a
// harness mapping with translated arguments.
func BenchmarkResolve(b *testing.B) {
	reg := builtinRegistry(b)
	for _, c := range []struct{ name, tool, args string }{
		{"registered", "read_file", `{"path":"a"}`},
		{"camel_case", "ReadFile", `{"path":"a"}`},
		{"harness", "Bash", `{"command":"ls","timeout":5000}`},
		{"unknown", "teleport", `{}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				reg.Resolve(c.tool, c.args)
			}
		})
	}
}
