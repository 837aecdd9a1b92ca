package tools

import (
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// FuzzArgsAsText: no argument text sent in place of an object (parameter markup, a unified
// diff, a bare value) panics, and what it is read as is an object.
func FuzzArgsAsText(f *testing.F) {
	reg := builtinRegistry(f)
	env := &Env{Root: f.TempDir()}
	for _, seed := range [][2]string{
		{"glob", "<parameter=pattern>**</parameter>"},
		{"read_file", "<arg_key>path</arg_key><arg_value>a.go</arg_value>"},
		{"read_file", `<parameter name="path">a.go</parameter>`},
		{"list_dir", `"src"`},
		{"apply_patch", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"},
		{"fs_patch", `{"path": "x", "contents": "@@ ... @@\n-a\n+b"}`},
		{"ICodebase.read_directory", `"src"`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, name, raw string) {
		a := reg.Admit(env, Call{ID: "1", Name: name, Args: raw})
		if a.Refusal == "" && (len(a.Args) == 0 || a.Args[0] != '{') {
			t.Fatalf("%s %q admitted with arguments %s", name, raw, a.Args)
		}
	})
}

// A 1 MB hostile argument text is read in bounded time.
func TestArgsAsTextHostileMegabyte(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	const mb = 1 << 20
	hostile := map[string][2]string{
		"open parameters": {"glob", strings.Repeat("<parameter=pattern>", mb/19)},
		"pairs":           {"read_file", strings.Repeat("<arg_key>path</arg_key><arg_value>a", mb/36)},
		"unified headers": {"apply_patch", `{"input": "` + strings.Repeat(`--- a\n+++ b\n`, mb/14) + `"}`},
		"hunks":           {"fs_patch", `{"path": "a", "contents": "` + strings.Repeat(`@@\n-x\n+y\n`, mb/12) + `"}`},
	}
	for name, call := range hostile {
		t.Run(name, func(t *testing.T) {
			testwait.Returns(t, 20*time.Second, func() { reg.Admit(env, Call{ID: "1", Name: call[0], Args: call[1]}) },
				"a hostile 1 MB argument text")
		})
	}
}
