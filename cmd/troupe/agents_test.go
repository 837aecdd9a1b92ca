package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lineOf returns the line of out that starts with the role name, or "".
func lineOf(out, name string) string {
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == name {
			return l
		}
	}
	return ""
}

func TestAgentsCommand(t *testing.T) {
	repo := newRepo(t, nil)
	r := troupe(t, repo, testEnv(t), "agents")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, name := range []string{"explorer", "planner", "verifier", "worker", "reviewer"} {
		l := lineOf(r.stdout, name)
		if !strings.Contains(l, "builtin") || !strings.Contains(l, "parent's") {
			t.Errorf("%s line = %q\n%s", name, l, r.stdout)
		}
	}
	if l := lineOf(r.stdout, "worker"); !strings.Contains(l, "parent's tools") {
		t.Errorf("worker line = %q", l)
	}
	if l := lineOf(r.stdout, "verifier"); !strings.Contains(l, "bash (plan-safe)") || !strings.Contains(l, "VERDICT") {
		t.Errorf("verifier line = %q", l)
	}

	// Custom roles, from a subdirectory of the project: one new, one overriding a built-in.
	dir := filepath.Join(repo, ".troupe", "agents")
	if err := os.MkdirAll(filepath.Join(repo, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeRole := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeRole("docs.md", "---\ndescription: Writes the docs\ntools: [read_file, write_file]\nmodel: openai/gpt-4o-mini\n---\nYou write docs.\n")
	writeRole("planner.md", "---\ndescription: Our planner\nmodel: ollama/qwen2.5-coder\n---\nPlan.\n")
	r = troupe(t, filepath.Join(repo, "sub"), testEnv(t), "agents")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	docs := lineOf(r.stdout, "docs")
	for _, want := range []string{".troupe/agents/docs.md", "openai/gpt-4o-mini", "read_file, write_file", "Writes the docs"} {
		if !strings.Contains(docs, want) {
			t.Errorf("docs line %q lacks %q", docs, want)
		}
	}
	if l := lineOf(r.stdout, "planner"); !strings.Contains(l, "overrides builtin") || !strings.Contains(l, "ollama/qwen2.5-coder") {
		t.Errorf("planner line = %q", l)
	}

	// A bad role file is a usage error that names the file and the problem.
	writeRole("broken.md", "---\ndescription: x\nmax_turns: -2\n---\n")
	r = troupe(t, repo, testEnv(t), "agents")
	if r.code != 2 || !strings.Contains(r.stderr, "broken.md: line 3: max_turns is -2") {
		t.Errorf("bad role file: exit %d\nstderr: %s", r.code, r.stderr)
	}
}
