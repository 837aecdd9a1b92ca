package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/tools/worktree"
)

// childWork makes the worktree a child spawned with worktree: true would leave behind: files
// written and committed by Finish.
func childWork(t *testing.T, repo, name string, files map[string]string) {
	t.Helper()
	w, err := worktree.Create(repo, name)
	if err != nil {
		t.Fatal(err)
	}
	for f, content := range files {
		if err := os.WriteFile(filepath.Join(w.Path, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Finish("child " + name); err != nil {
		t.Fatal(err)
	}
}

// userCommit commits a change in the main checkout, as the user would.
func userCommit(t *testing.T, repo, file, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(repo, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "user: "+file)
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

func TestWorktreeCommand(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	branch := gitOut(t, repo, "branch", "--show-current")
	env := testEnv(t)

	r := troupe(t, repo, env, "worktree", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "no troupe worktrees") {
		t.Fatalf("list of none: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	childWork(t, repo, "clean", map[string]string{"c.txt": "c\n"})
	childWork(t, repo, "clash", map[string]string{"a.txt": "child\n"})
	userCommit(t, repo, "a.txt", "user\n")

	r = troupe(t, repo, env, "worktree", "list")
	if r.code != 0 {
		t.Fatalf("list: exit %d\n%s", r.code, r.stderr)
	}
	if l := lineOf(r.stdout, "clean"); !strings.Contains(l, "troupe/clean") || !strings.Contains(l, "1") ||
		!strings.Contains(l, "ready to merge") || !strings.Contains(l, filepath.Join(".troupe", "worktrees", "clean")) {
		t.Errorf("list line = %q\n%s", l, r.stdout)
	}

	r = troupe(t, repo, env, "worktree", "merge", "clean")
	if r.code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"merged troupe/clean into " + branch, "1 commit", "c.txt", "troupe worktree drop clean"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("merge output lacks %q:\n%s", want, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "c.txt")); err != nil {
		t.Error("c.txt not merged")
	}
	if l := lineOf(troupe(t, repo, env, "worktree", "list").stdout, "clean"); !strings.Contains(l, "merged") {
		t.Errorf("after merge: %q", l)
	}

	head := gitOut(t, repo, "rev-parse", "HEAD")
	r = troupe(t, repo, env, "worktree", "merge", "clash")
	if r.code != 1 {
		t.Fatalf("conflicting merge: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"conflict in:", "  a.txt", "aborted", "cd " + filepath.Join(".troupe", "worktrees", "clash") + " && git merge " + branch,
		"troupe worktree merge clash", "troupe worktree drop clash"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("conflict report lacks %q:\n%s", want, r.stderr)
		}
	}
	if got := gitOut(t, repo, "rev-parse", "HEAD"); got != head {
		t.Error("HEAD moved on a conflict")
	}
	if st := gitOut(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("tree dirty after a conflict:\n%s", st)
	}

	r = troupe(t, repo, env, "worktree", "drop", "clash")
	if r.code != 0 || !strings.Contains(r.stdout, "dropped worktree clash") {
		t.Fatalf("drop: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, ".troupe", "worktrees", "clash")); !os.IsNotExist(err) {
		t.Error("worktree directory still there")
	}
	if out := gitOut(t, repo, "branch", "--list", "troupe/clash"); out != "" {
		t.Errorf("branch still there: %q", out)
	}
	if data, _ := os.ReadFile(filepath.Join(repo, "a.txt")); string(data) != "user\n" {
		t.Errorf("a.txt = %q", data)
	}
}

func TestWorktreeCommandErrors(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "a\n"})
	childWork(t, repo, "w", map[string]string{"n.txt": "n\n"})
	env := testEnv(t)
	tests := []struct {
		name string
		dir  string
		args []string
		code int
		want string
	}{
		{"no subcommand", repo, []string{"worktree"}, 2, "needs a subcommand: list, merge NAME or drop NAME"},
		{"unknown subcommand", repo, []string{"worktree", "prune"}, 2, `unknown worktree subcommand "prune"`},
		{"merge without a name", repo, []string{"worktree", "merge"}, 2, "merge needs one NAME"},
		{"drop with two names", repo, []string{"worktree", "drop", "a", "b"}, 2, "drop needs one NAME"},
		{"list with an argument", repo, []string{"worktree", "list", "x"}, 2, "takes no arguments"},
		{"unknown name", repo, []string{"worktree", "merge", "nope"}, 2, `no such troupe worktree "nope"`},
		{"invalid name", repo, []string{"worktree", "drop", "../x"}, 2, "invalid name"},
		{"outside a repository", t.TempDir(), []string{"worktree", "list"}, 1, "needs a git repository"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := troupe(t, tt.dir, env, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d (want %d)\nstderr: %s", r.code, tt.code, r.stderr)
			}
		})
	}
	t.Run("dirty tree refuses to merge", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("wip\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := troupe(t, repo, env, "worktree", "merge", "w")
		if r.code != 1 || !strings.Contains(r.stderr, "uncommitted changes (a.txt)") || !strings.Contains(r.stderr, "commit or stash") {
			t.Errorf("exit %d\nstderr: %s", r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(repo, "n.txt")); err == nil {
			t.Error("merged into a dirty tree")
		}
	})
}

func TestWorktreeInChat(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "a\n"})
	childWork(t, repo, "side", map[string]string{"s.txt": "s\n"})
	model := writeScript(t, repo, `{"turns": [{"text": "unused"}]}`)
	cmd, stdin, out, stderr := startChat(t, repo, "--sandbox", "off", "--model", model)
	io.WriteString(stdin, "/worktree list\n")
	out.waitFor(t, "troupe/side", 30*time.Second)
	io.WriteString(stdin, "/worktree frob\n")
	out.waitFor(t, `unknown worktree subcommand "frob"`, 30*time.Second)
	io.WriteString(stdin, "/worktree merge side\n")
	out.waitFor(t, "merged troupe/side into", 30*time.Second)
	io.WriteString(stdin, "/worktree drop side\n")
	out.waitFor(t, "dropped worktree side", 30*time.Second)
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(repo, "s.txt")); err != nil {
		t.Error("s.txt was not merged")
	}
}
