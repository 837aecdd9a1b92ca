package actors

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestNormalizeRemote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"git@github.com:Owner/Repo.git", "github.com/Owner/Repo"},
		{"https://github.com/Owner/Repo", "github.com/Owner/Repo"},
		{"https://user:tok@GitHub.com/Owner/Repo.git/", "github.com/Owner/Repo"},
		{"ssh://git@github.com:22/Owner/Repo.git", "github.com/Owner/Repo"},
		{"git://host.example/x/y", "host.example/x/y"},
		{"file:///srv/git/repo.git/", "file:///srv/git/repo.git"},
		{"/srv/git/repo.git", "/srv/git/repo"},
		{"", ""},
	} {
		if got := normalizeRemote(c.in); got != c.want {
			t.Errorf("normalizeRemote(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Two checkouts of one repository at different paths, one cloned over ssh-style and one over
// https-style URLs, get one project id; another repository gets another; a directory outside
// git falls back to its path (and says so); a linked worktree is its repository's project.
func TestProjectIDFollowsTheRepositoryNotThePath(t *testing.T) {
	base := t.TempDir()
	origin := filepath.Join(base, "origin")
	os.MkdirAll(origin, 0o755)
	git(t, origin, "init", "-q")
	os.WriteFile(filepath.Join(origin, "a"), []byte("a"), 0o644)
	git(t, origin, "add", "a")
	git(t, origin, "commit", "-qm", "root")
	clone := func(name, url string) string {
		dir := filepath.Join(base, name)
		git(t, base, "clone", "-q", origin, dir)
		git(t, dir, "remote", "set-url", "origin", url)
		return dir
	}
	a := clone("a", "git@example.com:team/app.git")
	b := clone("deep/b", "https://example.com/team/app")
	stateA, stateB := filepath.Join(a, ".troupe"), filepath.Join(b, ".troupe")
	os.MkdirAll(stateA, 0o755)
	pa, pb := ProjectID(a, stateA), ProjectID(b, stateB)
	if pa.ID != pb.ID || pa.PathOnly {
		t.Fatalf("two checkouts of one repository: %+v vs %+v", pa, pb)
	}
	if _, err := os.Stat(filepath.Join(stateA, "project.json")); err != nil {
		t.Errorf("the root commit was not cached where the state directory exists: %v", err)
	}
	if _, err := os.Stat(stateB); err == nil {
		t.Errorf("ProjectID created a state directory")
	}
	if again := ProjectID(a, stateA); again != pa {
		t.Errorf("cached: %+v, want %+v", again, pa)
	}
	other := clone("c", "git@example.com:team/other.git")
	if p := ProjectID(other, filepath.Join(other, ".troupe")); p.ID == pa.ID {
		t.Errorf("another remote got the same id %s", p.ID)
	}
	wt := filepath.Join(base, "wt")
	git(t, a, "worktree", "add", "-q", wt)
	if p := ProjectID(wt, filepath.Join(wt, ".troupe")); p.ID != pa.ID {
		t.Errorf("a linked worktree: %+v, want the repository's id %s", p, pa.ID)
	}
	plain := filepath.Join(base, "plain")
	os.MkdirAll(plain, 0o755)
	if p := ProjectID(plain, filepath.Join(plain, ".troupe")); !p.PathOnly || !validProjectIDOrNS(p.ID) {
		t.Errorf("outside git: %+v, want the path's hash, marked", p)
	}
	if err := CheckProjectID("my-service_2"); err != nil {
		t.Error(err)
	}
	if err := CheckProjectID("a.b"); err == nil {
		t.Error("CheckProjectID accepted a dotted id")
	}
}

func validProjectIDOrNS(id string) bool { return CheckProjectID(id) == nil }

// A repository is unborn only while its HEAD's branch has no commit, loose or packed: then the
// root commit is not looked for (no git process); anything else, git is asked.
func TestUnbornHeadOnlyWithoutCommits(t *testing.T) {
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	if !unbornHead(repo, findGitCommonDir(repo)) {
		t.Fatalf("a fresh repository is not unborn")
	}
	if p := ProjectID(repo, filepath.Join(repo, ".troupe")); !p.PathOnly {
		t.Errorf("unborn repository without remote: %+v, want the path's id", p)
	}
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	if unbornHead(repo, findGitCommonDir(repo)) {
		t.Errorf("a repository with a commit is unborn")
	}
	git(t, repo, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(repo, ".git", "refs", "heads", "main")); err == nil {
		t.Fatalf("pack-refs left the loose ref")
	}
	if unbornHead(repo, findGitCommonDir(repo)) {
		t.Errorf("a repository whose branch is packed is unborn")
	}
	if p := ProjectID(repo, filepath.Join(repo, ".troupe")); p.PathOnly {
		t.Errorf("repository with a packed commit: %+v, want its root commit's id", p)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, repo, "worktree", "add", "-q", "-b", "side", wt)
	if unbornHead(wt, findGitCommonDir(wt)) {
		t.Errorf("a linked worktree on a branch with commits is unborn")
	}
	git(t, repo, "checkout", "-q", "--detach")
	if unbornHead(repo, findGitCommonDir(repo)) {
		t.Errorf("a detached HEAD is unborn")
	}
}
