package worktree

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// isolateGit makes git ignore the machine's configuration and know a test identity, so the
// tests behave the same on a developer's laptop and a bare CI machine. extra lines go into the
// [user] section of the private global config.
func isolateGit(t *testing.T, userConfig string) {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	content := "[init]\n\tdefaultBranch = main\n[user]\n" + userConfig
	if err := os.WriteFile(cfg, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_DIR", "GIT_WORK_TREE", "EMAIL"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

const testUser = "\tname = Test User\n\temail = test@example.com\n"

// newRepo makes a git repository with one commit of the given files and returns its path.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	isolateGit(t, testUser)
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	gitT(t, dir, "init", "-q")
	writeFiles(t, dir, files)
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "--allow-empty", "-m", "init")
	return dir
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gitT runs git in dir and returns its trimmed output, failing the test on error.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWorktreeCreate(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	head := gitT(t, root, "rev-parse", "HEAD")
	w, err := Create(root, "fix-a_1")
	if err != nil {
		t.Fatal(err)
	}
	want := Worktree{Name: "fix-a_1", Path: filepath.Join(root, ".troupe", "worktrees", "fix-a_1"), Branch: "troupe/fix-a_1", Base: head}
	if *w != want {
		t.Errorf("Create = %+v, want %+v", *w, want)
	}
	if got := readFile(t, filepath.Join(w.Path, "a.txt")); got != "a\n" {
		t.Errorf("worktree a.txt = %q", got)
	}
	if got := gitT(t, w.Path, "branch", "--show-current"); got != "troupe/fix-a_1" {
		t.Errorf("worktree branch = %q", got)
	}
	// .troupe/ did not exist: Create made it, ignored, and the main tree stays clean.
	if got := readFile(t, filepath.Join(root, ".troupe", ".gitignore")); got != "*\n" {
		t.Errorf(".troupe/.gitignore = %q", got)
	}
	if st := gitT(t, root, "status", "--porcelain"); st != "" {
		t.Errorf("main tree dirty after Create:\n%s", st)
	}
	if st := gitT(t, w.Path, "status", "--porcelain"); st != "" {
		t.Errorf("worktree dirty after Create:\n%s", st)
	}
	// Created from a subdirectory, the worktree still lands under the repository's top.
	writeFiles(t, root, map[string]string{"sub/x.txt": "x"})
	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "-qm", "sub")
	w2, err := Create(filepath.Join(root, "sub"), "from-sub")
	if err != nil {
		t.Fatal(err)
	}
	if w2.Path != filepath.Join(root, ".troupe", "worktrees", "from-sub") {
		t.Errorf("path from a subdirectory = %s", w2.Path)
	}
}

func TestWorktreeCreateErrors(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T) string // returns root
		task    string
		is      error
		wantErr []string
	}{
		{
			name:    "outside a repository",
			setup:   func(t *testing.T) string { isolateGit(t, testUser); return t.TempDir() },
			task:    "x",
			is:      ErrNotRepo,
			wantErr: []string{"needs a git repository", "git init", "spawn without worktree"},
		},
		{
			name: "no commits",
			setup: func(t *testing.T) string {
				isolateGit(t, testUser)
				dir := t.TempDir()
				gitT(t, dir, "init", "-q")
				return dir
			},
			task: "x", is: ErrNoCommits, wantErr: []string{"no commits"},
		},
		{
			name: "dirty tracked and untracked files",
			setup: func(t *testing.T) string {
				root := newRepo(t, map[string]string{"a.txt": "a\n", ".gitignore": "build/\n"})
				writeFiles(t, root, map[string]string{
					"a.txt": "changed\n", "new1": "", "new2": "", "new3": "", "new4": "", "new5": "",
					"build/out.o": "ignored files do not count",
				})
				return root
			},
			task:    "x",
			wantErr: []string{"uncommitted changes", "a.txt", "new1", "and 1 more", "would start from the last commit", "commit or stash"},
		},
		{
			name: "dirty: staged change",
			setup: func(t *testing.T) string {
				root := newRepo(t, map[string]string{"a.txt": "a\n"})
				writeFiles(t, root, map[string]string{"a.txt": "b\n"})
				gitT(t, root, "add", "a.txt")
				return root
			},
			task: "x", wantErr: []string{"(a.txt)"},
		},
		{name: "uppercase name", setup: func(t *testing.T) string { return newRepo(t, nil) }, task: "Fix", is: ErrInvalidName, wantErr: []string{`"Fix"`, "a-z, 0-9"}},
		{name: "slash in name", setup: func(t *testing.T) string { return newRepo(t, nil) }, task: "a/b", is: ErrInvalidName},
		{name: "dot-dot name", setup: func(t *testing.T) string { return newRepo(t, nil) }, task: "..", is: ErrInvalidName},
		{name: "leading dash", setup: func(t *testing.T) string { return newRepo(t, nil) }, task: "-rf", is: ErrInvalidName},
		{name: "empty name", setup: func(t *testing.T) string { return newRepo(t, nil) }, task: "", is: ErrInvalidName},
		{name: "name too long", setup: func(t *testing.T) string { return newRepo(t, nil) }, task: strings.Repeat("a", 65), is: ErrInvalidName},
		{
			name: "duplicate name",
			setup: func(t *testing.T) string {
				root := newRepo(t, nil)
				if _, err := Create(root, "dup"); err != nil {
					t.Fatal(err)
				}
				return root
			},
			task: "dup", is: ErrExists, wantErr: []string{"already", "troupe worktree drop dup"},
		},
		{
			name: "branch already exists",
			setup: func(t *testing.T) string {
				root := newRepo(t, nil)
				gitT(t, root, "branch", "troupe/taken")
				return root
			},
			task: "taken", is: ErrExists, wantErr: []string{"branch troupe/taken is already there"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tt.setup(t)
			w, err := Create(root, tt.task)
			if err == nil {
				t.Fatalf("no error; created %+v", w)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
	t.Run("65 bytes is one too many, 64 is fine", func(t *testing.T) {
		root := newRepo(t, nil)
		if _, err := Create(root, strings.Repeat("a", 64)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("dirty error type", func(t *testing.T) {
		root := newRepo(t, nil)
		writeFiles(t, root, map[string]string{"n.txt": "n"})
		_, err := Create(root, "x")
		var de *DirtyError
		if !errors.As(err, &de) || de.Total != 1 || !slices.Equal(de.Paths, []string{"n.txt"}) || de.Dir != root {
			t.Errorf("error = %#v", err)
		}
	})
}

func TestWorktreeFinish(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n", "gone.txt": "bye\n"})
	w, err := Create(root, "task")
	if err != nil {
		t.Fatal(err)
	}
	// No changes: no commit, empty stat.
	stat, err := w.Finish("nothing")
	if err != nil || stat != "" {
		t.Fatalf("Finish without changes = %q, %v", stat, err)
	}
	if got := gitT(t, w.Path, "rev-parse", "HEAD"); got != w.Base {
		t.Errorf("Finish without changes committed: HEAD %s, base %s", got, w.Base)
	}

	// The child edits, adds, deletes; and leaves troupe state that must not be committed.
	writeFiles(t, w.Path, map[string]string{"a.txt": "a\nmore\n", "dir/new.txt": "new\n", ".troupe/db/x": "state"})
	if err := os.Remove(filepath.Join(w.Path, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	stat, err = w.Finish("child: did the task")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a.txt", "dir/new.txt", "gone.txt", "3 files changed"} {
		if !strings.Contains(stat, want) {
			t.Errorf("diff stat lacks %q:\n%s", want, stat)
		}
	}
	if strings.Contains(stat, ".troupe") {
		t.Errorf("troupe state was committed:\n%s", stat)
	}
	if got := gitT(t, w.Path, "log", "-1", "--format=%an <%ae>|%cn|%s"); got != "troupe <troupe@localhost>|troupe|child: did the task" {
		t.Errorf("commit = %q", got)
	}
	if st := gitT(t, w.Path, "status", "--porcelain"); st != "" {
		t.Errorf("worktree dirty after Finish:\n%s", st)
	}
	// The main checkout did not change.
	if got := readFile(t, filepath.Join(root, "a.txt")); got != "a\n" {
		t.Errorf("main a.txt = %q", got)
	}
	// Finishing again with nothing new reports the whole branch, and makes no commit.
	before := gitT(t, w.Path, "rev-parse", "HEAD")
	stat2, err := w.Finish("")
	if err != nil || stat2 != stat {
		t.Errorf("second Finish = %q, %v; want %q", stat2, err, stat)
	}
	if after := gitT(t, w.Path, "rev-parse", "HEAD"); after != before {
		t.Error("second Finish made a commit")
	}
	// A hook that would refuse the commit does not stop a child's checkpoint.
	hook := filepath.Join(gitT(t, root, "rev-parse", "--git-common-dir"), "hooks", "pre-commit")
	if !filepath.IsAbs(hook) {
		hook = filepath.Join(root, hook)
	}
	writeFiles(t, filepath.Dir(hook), map[string]string{filepath.Base(hook): "#!/bin/sh\nexit 1\n"})
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, w.Path, map[string]string{"b.txt": "b"})
	if _, err := w.Finish("with hook"); err != nil {
		t.Errorf("Finish with a failing pre-commit hook: %v", err)
	}
}

func TestWorktreeList(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	if infos, err := List(root); err != nil || len(infos) != 0 {
		t.Fatalf("List of a fresh repo = %+v, %v", infos, err)
	}
	wb, err := Create(root, "beta")
	if err != nil {
		t.Fatal(err)
	}
	wa, err := Create(root, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, wb.Path, map[string]string{"b.txt": "b"})
	if _, err := wb.Finish("b1"); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, wb.Path, map[string]string{"b2.txt": "b"})
	if _, err := wb.Finish("b2"); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, wa.Path, map[string]string{"a.txt": "edited, not finished\n"})
	// A worktree troupe did not make is not listed.
	gitT(t, root, "worktree", "add", "-q", "-b", "other", filepath.Join(t.TempDir(), "other"))

	infos, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []Info{
		{Name: "alpha", Path: wa.Path, Branch: "troupe/alpha", Base: wa.Base, Ahead: 0, Dirty: true},
		{Name: "beta", Path: wb.Path, Branch: "troupe/beta", Base: wb.Base, Ahead: 2, Dirty: false},
	}
	if !slices.Equal(infos, want) {
		t.Errorf("List =\n%+v\nwant\n%+v", infos, want)
	}
	if _, err := List(t.TempDir()); !errors.Is(err, ErrNotRepo) {
		t.Errorf("List outside a repository: %v", err)
	}
	// After a merge, the worktree is reported merged; a directory deleted by hand is missing.
	if err := os.WriteFile(filepath.Join(wa.Path, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(root, "beta"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(wa.Path); err != nil {
		t.Fatal(err)
	}
	infos, err = List(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 || !infos[0].Missing || infos[0].Dirty || !infos[1].Merged || infos[1].Ahead != 2 {
		t.Errorf("List after merge and rm = %+v", infos)
	}
}

func TestWorktreeMerge(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	w, err := Create(root, "feat")
	if err != nil {
		t.Fatal(err)
	}
	// Nothing to merge yet.
	res, err := Merge(root, "feat")
	if err != nil || res.Commit != "" || res.Commits != 0 {
		t.Fatalf("Merge of an unchanged branch = %+v, %v", res, err)
	}
	writeFiles(t, w.Path, map[string]string{"a.txt": "a\nfrom child\n", "c.txt": "c\n"})
	if _, err := w.Finish("child work"); err != nil {
		t.Fatal(err)
	}
	// Meanwhile the user commits to another file: the merge is still clean.
	writeFiles(t, root, map[string]string{"b.txt": "b\nfrom user\n"})
	gitT(t, root, "commit", "-qam", "user work")

	res, err = Merge(root, "feat")
	if err != nil {
		t.Fatal(err)
	}
	if res.Into != "main" || res.Branch != "troupe/feat" || res.Name != "feat" || res.Commits != 1 || res.Commit != gitT(t, root, "rev-parse", "HEAD") {
		t.Errorf("Merge = %+v", res)
	}
	if !strings.Contains(res.DiffStat, "a.txt") || !strings.Contains(res.DiffStat, "c.txt") || strings.Contains(res.DiffStat, "b.txt") {
		t.Errorf("diff stat:\n%s", res.DiffStat)
	}
	if got := readFile(t, filepath.Join(root, "a.txt")); got != "a\nfrom child\n" {
		t.Errorf("a.txt after merge = %q", got)
	}
	if parents := strings.Fields(gitT(t, root, "log", "-1", "--format=%P")); len(parents) != 2 {
		t.Errorf("not a merge commit: parents %v", parents)
	}
	if got := gitT(t, root, "log", "-1", "--format=%an"); got != "Test User" {
		t.Errorf("merge made by %q, want the user", got)
	}
	if st := gitT(t, root, "status", "--porcelain"); st != "" {
		t.Errorf("main tree dirty after merge:\n%s", st)
	}
	// Already merged: nothing more to do.
	if res, err := Merge(root, "feat"); err != nil || res.Commit != "" {
		t.Errorf("second Merge = %+v, %v", res, err)
	}
}

func TestWorktreeMergeFastForwardable(t *testing.T) {
	// Even when main has not moved, the merge is a merge commit: the child's work stays a unit.
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	w, err := Create(root, "ff")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, w.Path, map[string]string{"a.txt": "b\n"})
	if _, err := w.Finish("b"); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(root, "ff"); err != nil {
		t.Fatal(err)
	}
	if parents := strings.Fields(gitT(t, root, "log", "-1", "--format=%P")); len(parents) != 2 {
		t.Errorf("fast-forwarded instead of a merge commit: parents %v", parents)
	}
}

func TestWorktreeMergeConflict(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "line\n", "b.txt": "b\n"})
	w, err := Create(root, "clash")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, w.Path, map[string]string{"a.txt": "child's line\n", "b.txt": "child b\n"})
	if _, err := w.Finish("child"); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"a.txt": "user's line\n", "b.txt": "user b\n"})
	gitT(t, root, "commit", "-qam", "user")
	head := gitT(t, root, "rev-parse", "HEAD")

	res, err := Merge(root, "clash")
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Merge = %+v, %v; want a *ConflictError", res, err)
	}
	if !slices.Equal(ce.Files, []string{"a.txt", "b.txt"}) || ce.Into != "main" || ce.Branch != "troupe/clash" || ce.Name != "clash" {
		t.Errorf("conflict = %+v", ce)
	}
	for _, want := range []string{"a.txt, b.txt", "aborted", "main is unchanged"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Root is exactly as it was: same commit, clean tree, no merge in progress.
	if got := gitT(t, root, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved: %s -> %s", head, got)
	}
	if st := gitT(t, root, "status", "--porcelain"); st != "" {
		t.Errorf("main tree dirty after a conflict:\n%s", st)
	}
	if got := readFile(t, filepath.Join(root, "a.txt")); got != "user's line\n" {
		t.Errorf("a.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "MERGE_HEAD")); err == nil {
		t.Error("a merge is still in progress")
	}
}

func TestWorktreeMergeRefuses(t *testing.T) {
	t.Run("dirty root", func(t *testing.T) {
		root := newRepo(t, map[string]string{"a.txt": "a\n"})
		w, err := Create(root, "x")
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, w.Path, map[string]string{"c.txt": "c"})
		if _, err := w.Finish("c"); err != nil {
			t.Fatal(err)
		}
		writeFiles(t, root, map[string]string{"a.txt": "wip\n"})
		_, err = Merge(root, "x")
		var de *DirtyError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), "commit or stash them before merging") {
			t.Fatalf("Merge with a dirty root: %v", err)
		}
		if got := readFile(t, filepath.Join(root, "a.txt")); got != "wip\n" {
			t.Errorf("the user's change was touched: %q", got)
		}
		if _, err := os.Stat(filepath.Join(root, "c.txt")); err == nil {
			t.Error("merged anyway")
		}
	})
	t.Run("uncommitted changes in the worktree", func(t *testing.T) {
		root := newRepo(t, map[string]string{"a.txt": "a\n"})
		w, err := Create(root, "x")
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, w.Path, map[string]string{"c.txt": "c"})
		_, err = Merge(root, "x")
		if err == nil || !strings.Contains(err.Error(), "would be left out") || !strings.Contains(err.Error(), "c.txt") {
			t.Fatalf("Merge with a dirty worktree: %v", err)
		}
	})
	t.Run("unknown name", func(t *testing.T) {
		root := newRepo(t, nil)
		if _, err := Merge(root, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Merge(nope) = %v", err)
		}
		if _, err := Merge(root, "../x"); !errors.Is(err, ErrInvalidName) {
			t.Errorf("Merge(../x) = %v", err)
		}
	})
}

func TestWorktreeMergeWithoutIdentity(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	w, err := Create(root, "x")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, w.Path, map[string]string{"c.txt": "c"})
	if _, err := w.Finish("c"); err != nil {
		t.Fatal(err)
	}
	// A machine where git knows nobody: the merge is made as troupe rather than not at all.
	isolateGit(t, "\tuseConfigOnly = true\n")
	if _, err := Merge(root, "x"); err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, root, "log", "-1", "--format=%an <%ae>"); got != "troupe <troupe@localhost>" {
		t.Errorf("merge author = %q", got)
	}
}

func TestWorktreeDrop(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	w, err := Create(root, "gone")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, w.Path, map[string]string{"a.txt": "uncommitted\n", "new.txt": "n"})
	if err := Drop(root, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("worktree directory still there: %v", err)
	}
	if out := gitT(t, root, "branch", "--list", "troupe/*"); out != "" {
		t.Errorf("branch still there: %q", out)
	}
	if out := gitT(t, root, "config", "--local", "--list"); strings.Contains(out, "troupe/gone") {
		t.Errorf("branch config left behind: %q", out)
	}
	if infos, err := List(root); err != nil || len(infos) != 0 {
		t.Errorf("List after Drop = %+v, %v", infos, err)
	}
	if got := readFile(t, filepath.Join(root, "a.txt")); got != "a\n" {
		t.Errorf("main a.txt = %q", got)
	}
	// The name is free again.
	if _, err := Create(root, "gone"); err != nil {
		t.Errorf("Create after Drop: %v", err)
	}
	if err := Drop(root, "never"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Drop(never) = %v", err)
	}
	if err := Drop(root, "../../etc"); !errors.Is(err, ErrInvalidName) {
		t.Errorf("Drop(../../etc) = %v", err)
	}

	t.Run("directory deleted by hand", func(t *testing.T) {
		w, err := Create(root, "rm")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.RemoveAll(w.Path); err != nil {
			t.Fatal(err)
		}
		if err := Drop(root, "rm"); err != nil {
			t.Fatal(err)
		}
		if out := gitT(t, root, "worktree", "list"); strings.Contains(out, "rm") {
			t.Errorf("still registered:\n%s", out)
		}
		if _, err := Create(root, "rm"); err != nil {
			t.Errorf("Create after Drop: %v", err)
		}
	})
}

func TestWorktreeConcurrentCreate(t *testing.T) {
	// Children spawned together create their worktrees at once; none may fail on git's locks.
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	names := []string{"c1", "c2", "c3", "c4"}
	errs := make(chan error, len(names))
	for _, n := range names {
		go func() {
			w, err := Create(root, n)
			if err == nil {
				if err = os.WriteFile(filepath.Join(w.Path, n+".txt"), []byte(n), 0o644); err == nil {
					_, err = w.Finish(n)
				}
			}
			errs <- err
		}()
	}
	for range names {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	infos, err := List(root)
	if err != nil || len(infos) != len(names) {
		t.Fatalf("List = %+v, %v", infos, err)
	}
	for _, info := range infos {
		if info.Ahead != 1 || info.Dirty {
			t.Errorf("%+v", info)
		}
	}
}
