package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/tools/syntaxcheck"
)

// Every write step of the suite to a file the syntax check knows can be broken; the broken
// file fails tools/syntaxcheck, and the fix edit (broken text to intended) finds its text
// exactly once and leaves the file parsing, as the careful step would have.
func TestSyntaxBreaksFailAndTheirFixesParse(t *testing.T) {
	tasks, err := loadSuite("../../examples/repair/tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	// an external checker (node, python3) can take seconds to start on a loaded machine: the
	// wait comes from testwait, not the product's 5 s bound
	checker := syntaxcheck.Checker{Timeout: testwait.Scale(60 * time.Second)}
	dir := t.TempDir()
	check := func(rel, content string) *syntaxcheck.Problem {
		rel = esModule(rel)
		abs := filepath.Join(dir, filepath.Base(rel))
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := checker.Check(context.Background(), abs, rel, []byte(content))
		if err != nil {
			t.Fatalf("%s: the checker did not run: %v", rel, err)
		}
		return p
	}
	exts := map[string]bool{}
	for _, task := range tasks {
		for _, s := range task.Steps {
			broken, fix, ok := brokenStep(s)
			if !ok {
				continue
			}
			args, bad, fixArgs := decodeArgs(s), decodeArgs(broken), decodeArgs(fix)
			path := stringArg(args, "path")
			ext := filepath.Ext(path)
			if tool := externalChecker(ext); tool != "" {
				if _, err := exec.LookPath(tool); err != nil {
					t.Logf("%s: %s not installed, not checked", task.Name, tool)
					continue
				}
			}
			exts[ext] = true
			key := newTextArg(s)
			want, gotBad := apply(task.Files[path], s.Name, args, key, stringArg(args, key)), apply(task.Files[path], s.Name, bad, key, stringArg(bad, key))
			if p := check(path, want); p != nil {
				t.Fatalf("%s: the careful step leaves %s unparseable: %s", task.Name, path, p)
			}
			if p := check(path, gotBad); p == nil {
				t.Errorf("%s: the broken step leaves %s parsing:\n%s", task.Name, path, gotBad)
				continue
			}
			old := stringArg(fixArgs, "old_string")
			if n := strings.Count(gotBad, old); n != 1 || stringArg(fixArgs, "path") != path {
				t.Errorf("%s: the fix's old_string occurs %d times in %s", task.Name, n, path)
				continue
			}
			fixed := strings.Replace(gotBad, old, stringArg(fixArgs, "new_string"), 1)
			if fixed != want || check(path, fixed) != nil {
				t.Errorf("%s: the fix leaves %q, want %q", task.Name, fixed, want)
			}
		}
	}
	for _, ext := range []string{".go", ".json", ".yaml", ".toml"} { // the in-process checks
		if !exts[ext] {
			t.Errorf("no task writes a %s file to break", ext)
		}
	}
}

// apply is a file's content after the step: an edit of its old text, or a write.
func apply(content, tool string, args map[string]any, key, text string) string {
	if tool == "write_file" {
		return text
	}
	return strings.Replace(content, stringArg(args, "old_string"), text, 1)
}

func externalChecker(ext string) string {
	return map[string]string{".py": "python3", ".js": "node", ".sh": "bash"}[ext]
}

// A broken step needs a write to a checked kind of file.
func TestBrokenStepOnlyForCheckedWrites(t *testing.T) {
	for _, s := range []Step{readStep, {Name: "write_file", Args: []byte(`{"path":"notes.md","content":"# x\n"}`)}} {
		if _, _, ok := brokenStep(s); ok {
			t.Errorf("%s %s was broken", s.Name, s.Args)
		}
	}
	if _, _, ok := brokenStep(goEdit); !ok {
		t.Error("a Go edit was not broken")
	}
}
