package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitTopLevel is what git itself says the top level of dir is.
func gitTopLevel(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", "--show-toplevel")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git rev-parse in %s: %v", dir, err)
	}
	return strings.TrimSpace(string(out))
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestProjectRootAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(base, "repo")
	deep := filepath.Join(repo, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	worktree := filepath.Join(base, "wt")
	git(t, repo, "worktree", "add", "-q", worktree)
	wtDeep := filepath.Join(worktree, "x")
	if err := os.MkdirAll(wtDeep, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(deep, link); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{repo, deep, worktree, wtDeep, link} {
		if got, want := ProjectRoot(dir), gitTopLevel(t, dir); got != want {
			t.Errorf("ProjectRoot(%s) = %s, git says %s", dir, got, want)
		}
	}
}

func TestProjectRootOutsideARepositoryIsTheDirectory(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		t.Skip("temp dir is inside a repository")
	}
	// A repository elsewhere on the machine must not matter; only the directories above dir.
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			t.Skipf("%s is inside the repository at %s", dir, d)
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := ProjectRoot(sub); got != sub {
		t.Errorf("ProjectRoot(%s) = %s, want the directory itself", sub, got)
	}
}
