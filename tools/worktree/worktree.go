// Package worktree gives a subagent its own git worktree and branch (docs/DESIGN-NOTES.md
// "Subagents"): a child spawned with worktree: true works in <root>/.troupe/worktrees/<task> on
// branch troupe/<task>, so its edits never touch the parent's checkout until someone merges them,
// or drops them.
//
// Everything goes through the git CLI (git -C dir …) so the result is exactly what the user's
// own git sees; git's stderr is carried in the errors.
package worktree

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Where troupe keeps worktrees, relative to the project root, and how it names their branches.
const (
	Dir          = ".troupe/worktrees"
	BranchPrefix = "troupe/"
)

// baseKey is the git config key (under branch.<branch>) that records the commit a worktree was
// branched from. Branch config is deleted with the branch, so Drop leaves nothing behind.
const baseKey = "troupebase"

// repoMu serializes the operations that write a repository's shared state (its config, the
// worktree registry, the main checkout): children spawned together create their worktrees at
// the same moment, and git fails rather than waits on a locked .git/config.
var repoMu sync.Mutex

// maxName bounds a worktree name: it becomes a directory and a branch name.
const maxName = 64

// Errors Create, Merge and Drop return; test with errors.Is.
var (
	ErrNotRepo     = errors.New("worktree: needs a git repository; run git init, or spawn without worktree")
	ErrNoCommits   = errors.New("worktree: the repository has no commits yet, so there is nothing to branch from; make a first commit, or spawn without worktree")
	ErrInvalidName = errors.New("worktree: invalid name")
	ErrExists      = errors.New("worktree: already exists")
	ErrNotFound    = errors.New("worktree: no such troupe worktree")
)

// Worktree is a child's checkout.
type Worktree struct {
	Name   string // the task name
	Path   string // absolute: <root>/.troupe/worktrees/<name>
	Branch string // troupe/<name>
	Base   string // the commit it was branched from
}

// DirtyError reports uncommitted changes that make an operation unsafe.
type DirtyError struct {
	Dir   string   // the checkout that is dirty
	Paths []string // up to 5 of the changed paths
	Total int      // how many paths changed in all
	why   string   // what the changes would mean for the operation, and what to do
}

func (e *DirtyError) Error() string {
	list := strings.Join(e.Paths, ", ")
	if more := e.Total - len(e.Paths); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("worktree: %s has uncommitted changes (%s); %s", e.Dir, list, e.why)
}

var nameRE = lazyre.New(`^[a-z0-9][a-z0-9_-]*$`)

// CheckName accepts names of lowercase letters, digits, _ and -, starting with a letter or digit,
// at most 64 bytes: safe as a directory, a branch name and a command-line argument.
func CheckName(name string) error {
	if !nameRE.MatchString(name) || len(name) > maxName {
		return fmt.Errorf("%w %q: use 1-%d characters of a-z, 0-9, _ and -, starting with a letter or digit", ErrInvalidName, name, maxName)
	}
	return nil
}

// Create makes the worktree <root>/.troupe/worktrees/<name> on a new branch troupe/<name> from
// the current commit. It refuses a dirty tree: the child would start from the last commit and not
// see the uncommitted changes, which is never what the parent means.
func Create(root, name string) (*Worktree, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	top, err := toplevel(root)
	if err != nil {
		return nil, err
	}
	repoMu.Lock()
	defer repoMu.Unlock()
	base, err := run1(top, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil || base == "" {
		return nil, ErrNoCommits
	}
	// .troupe/ first: if it had to be created, its .gitignore keeps it out of the dirty check.
	if err := ensureIgnored(top); err != nil {
		return nil, err
	}
	if err := checkClean(top, "the child would start from the last commit without them: commit or stash them first, or spawn without worktree"); err != nil {
		return nil, err
	}
	w := &Worktree{Name: name, Path: filepath.Join(top, Dir, name), Branch: BranchPrefix + name, Base: base}
	if _, err := os.Lstat(w.Path); err == nil {
		return nil, fmt.Errorf("%w: %s is already there; merge or drop it first (troupe worktree drop %s), or use another task name", ErrExists, w.Path, name)
	}
	if branchExists(top, w.Branch) {
		return nil, fmt.Errorf("%w: branch %s is already there; merge or drop it first (troupe worktree drop %s), or use another task name", ErrExists, w.Branch, name)
	}
	// A worktree whose directory was deleted by hand is still registered; forget it so its
	// path can be reused.
	_, _ = run(top, "worktree", "prune")
	if _, err := run(top, "worktree", "add", "-q", "-b", w.Branch, w.Path, base); err != nil {
		return nil, fmt.Errorf("worktree: create %s: %w", name, err)
	}
	if _, err := run(top, "config", "branch."+w.Branch+"."+baseKey, base); err != nil {
		_ = drop(top, name)
		return nil, fmt.Errorf("worktree: record the base of %s: %w", name, err)
	}
	// The child's own troupe state (if it writes any) must not be committed by Finish.
	if err := ensureIgnored(w.Path); err != nil {
		_ = drop(top, name)
		return nil, err
	}
	return w, nil
}

// Finish commits everything the child changed in the worktree (new, modified and deleted files;
// nothing when there are no changes) and returns `git diff --stat Base..Branch`, "" when the
// branch has no changes. Commits carry troupe's identity, and skip hooks: this is a checkpoint
// of the child's work, not the user's commit; the user's hooks run when they merge it.
func (w *Worktree) Finish(message string) (string, error) {
	if strings.TrimSpace(message) == "" {
		message = "troupe: " + w.Name
	}
	if _, err := run(w.Path, "add", "-A"); err != nil {
		return "", fmt.Errorf("worktree %s: stage the changes: %w", w.Name, err)
	}
	_, err := run(w.Path, "diff", "--cached", "--quiet")
	switch exitCode(err) {
	case 0: // nothing staged
	case 1:
		args := append(append([]string{}, noSign...), "commit", "-q", "--no-verify", "-m", message)
		if _, err := runEnv(w.Path, troupeIdentity, args...); err != nil {
			return "", fmt.Errorf("worktree %s: commit the changes: %w", w.Name, err)
		}
	default:
		return "", fmt.Errorf("worktree %s: look for changes: %w", w.Name, err)
	}
	stat, err := run(w.Path, "diff", "--stat", w.Base+".."+w.Branch)
	if err != nil {
		return "", fmt.Errorf("worktree %s: diff: %w", w.Name, err)
	}
	return strings.TrimRight(stat, "\n"), nil
}

// toplevel returns the top of the git checkout that holds root, symlinks resolved.
func toplevel(root string) (string, error) {
	top, err := run1(root, "rev-parse", "--show-toplevel")
	if errors.Is(err, exec.ErrNotFound) {
		return "", errors.New("worktree: git is not installed (or not on PATH); install git, or spawn without worktree")
	}
	if err != nil || top == "" {
		return "", ErrNotRepo
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	return top, nil
}

// ensureIgnored makes sure <dir>/.troupe exists and is ignored by git, the way troupe does
// everywhere: a .gitignore of "*" inside it. An existing .gitignore is left alone.
func ensureIgnored(dir string) error {
	td := filepath.Join(dir, ".troupe")
	if err := os.MkdirAll(td, 0o755); err != nil {
		return fmt.Errorf("worktree: %w", err)
	}
	gi := filepath.Join(td, ".gitignore")
	if _, err := os.Lstat(gi); err == nil {
		return nil
	}
	if err := os.WriteFile(gi, []byte("*\n"), 0o644); err != nil {
		return fmt.Errorf("worktree: %w", err)
	}
	return nil
}

// maxListed bounds how many dirty paths an error names.
const maxListed = 5

// checkClean returns a *DirtyError when dir has tracked changes or untracked files that are not
// ignored; why says what that means for the caller's operation.
func checkClean(dir, why string) error {
	paths, err := dirtyPaths(dir)
	if err != nil {
		return fmt.Errorf("worktree: status of %s: %w", dir, err)
	}
	if len(paths) == 0 {
		return nil
	}
	return &DirtyError{Dir: dir, Paths: paths[:min(len(paths), maxListed)], Total: len(paths), why: why}
}

// dirtyPaths lists what `git status` shows as changed or untracked (not ignored) in dir.
func dirtyPaths(dir string) ([]string, error) {
	out, err := run(dir, "status", "--porcelain=v1", "-z", "--untracked-files=normal")
	if err != nil {
		return nil, err
	}
	var paths []string
	fields := strings.Split(out, "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		paths = append(paths, f[3:])
		if f[0] == 'R' || f[0] == 'C' { // a rename or copy is followed by its source path
			i++
		}
	}
	return paths, nil
}

func branchExists(dir, branch string) bool {
	_, err := run(dir, "rev-parse", "--verify", "-q", "refs/heads/"+branch)
	return err == nil
}

// base returns the commit the branch was branched from: the recorded one, or else where it
// meets HEAD (a branch made by hand, or config lost).
func base(top, branch string) string {
	if b, err := run1(top, "config", "--get", "branch."+branch+"."+baseKey); err == nil && b != "" {
		return b
	}
	b, _ := run1(top, "merge-base", "HEAD", branch)
	return b
}
