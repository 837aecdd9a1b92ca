package worktree

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Drop removes troupe's worktree <name> (even with uncommitted changes) and deletes its branch
// troupe/<name>, merged or not: the caller asked to throw the work away.
func Drop(root, name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	top, err := toplevel(root)
	if err != nil {
		return err
	}
	repoMu.Lock()
	defer repoMu.Unlock()
	return drop(top, name)
}

// drop is Drop for a checked name and a resolved top level, with repoMu held.
func drop(top, name string) error {
	path, branch := filepath.Join(top, Dir, name), BranchPrefix+name
	registered, err := isRegistered(top, path)
	if err != nil {
		return err
	}
	hasBranch := branchExists(top, branch)
	if !registered && !hasBranch && !exists(path) {
		return fmt.Errorf("%w %q (see troupe worktree list)", ErrNotFound, name)
	}
	if registered && isDir(path) {
		if _, err := run(top, "worktree", "remove", "--force", path); err != nil {
			return fmt.Errorf("worktree: remove %s: %w", name, err)
		}
	}
	// A directory git no longer knows (deleted by hand, or a stray left by a crash) is troupe's
	// own leftover under .troupe/worktrees: clear it, and git's record of it.
	if exists(path) {
		if err := os.RemoveAll(path); err != nil {
			return fmt.Errorf("worktree: remove %s: %w", name, err)
		}
	}
	if _, err := run(top, "worktree", "prune"); err != nil {
		return fmt.Errorf("worktree: prune: %w", err)
	}
	if hasBranch {
		if _, err := run(top, "branch", "-D", "-q", branch); err != nil {
			return fmt.Errorf("worktree: delete branch %s: %w", branch, err)
		}
	}
	return nil
}

// isRegistered reports whether git lists a worktree at path.
func isRegistered(top, path string) (bool, error) {
	out, err := run(top, "worktree", "list", "--porcelain")
	if err != nil {
		return false, fmt.Errorf("worktree: list: %w", err)
	}
	for _, e := range parsePorcelain(out) {
		p := e.path
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if p == path {
			return true, nil
		}
	}
	return false, nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, os.ErrNotExist)
}
