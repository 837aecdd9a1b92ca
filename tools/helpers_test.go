package tools

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// newEnv makes a workspace and a session temp dir, with the root's symlinks evaluated.
func newEnv(t *testing.T) *Env {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Root: root, TempDir: t.TempDir()}
	t.Cleanup(func() { _ = env.Close() })
	return env
}

// writeFiles creates files under root; a name ending in / makes a directory.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readFileT(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// builtinRegistry is a registry of the built-in tools.
func builtinRegistry(t testing.TB) *Registry {
	t.Helper()
	r, err := NewRegistry(Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// call runs one call through the whole lifecycle.
func call(t *testing.T, env *Env, name, args string) Result {
	t.Helper()
	return builtinRegistry(t).Execute(context.Background(), env, Call{ID: "c1", Name: name, Args: args})
}

// mustContain fails unless every want is in got.
func mustContain(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("output lacks %q; got:\n%s", w, got)
		}
	}
}

// checkFor polls cond until it holds or the scaled deadline passes.
func checkFor(t *testing.T, within time.Duration, cond func() bool, what string) {
	t.Helper()
	testwait.Until(t, within, cond, what)
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update if the change is intended)\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}
