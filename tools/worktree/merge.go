package worktree

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// MergeResult says what Merge did.
type MergeResult struct {
	Name, Branch string
	Into         string // root's branch that received the merge ("HEAD" when detached)
	Commit       string // the merge commit; "" when there was nothing to merge
	Commits      int    // commits the merge brought in
	DiffStat     string // what the merge changed in root, as git diff --stat
}

// ConflictError is a merge that would conflict. The merge was aborted: root is as it was.
type ConflictError struct {
	Name, Branch, Into string
	IntoCommit         string   // the commit root is on: what the worktree must merge to resolve
	Files              []string // the conflicting paths
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("worktree: merging %s into %s conflicts in %s; the merge was aborted and %s is unchanged",
		e.Branch, e.Into, strings.Join(e.Files, ", "), e.Into)
}

// Merge merges troupe/<name> into root's current branch with a merge commit (--no-ff), so the
// child's work stays one visible, revertible unit. It refuses when root has uncommitted changes
// (a merge must not mix with the user's work in progress) or when the worktree has changes not
// committed to its branch (they would silently be left out). A conflict is never forced: the
// merge is aborted and a *ConflictError lists the files.
func Merge(root, name string) (*MergeResult, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	top, err := toplevel(root)
	if err != nil {
		return nil, err
	}
	repoMu.Lock()
	defer repoMu.Unlock()
	res := &MergeResult{Name: name, Branch: BranchPrefix + name}
	if !branchExists(top, res.Branch) {
		return nil, fmt.Errorf("%w %q: branch %s not found (see troupe worktree list)", ErrNotFound, name, res.Branch)
	}
	if err := checkClean(top, "commit or stash them before merging, so the merge does not mix with them"); err != nil {
		return nil, err
	}
	if wt := filepath.Join(top, Dir, name); isDir(wt) {
		if err := checkClean(wt, fmt.Sprintf("they are not committed to %s and would be left out: commit them there first, or drop the worktree", res.Branch)); err != nil {
			return nil, err
		}
	}
	res.Into, _ = run1(top, "symbolic-ref", "--short", "-q", "HEAD")
	if res.Into == "" {
		res.Into = "HEAD"
	}
	before, err := run1(top, "rev-parse", "HEAD")
	if err != nil {
		return nil, ErrNoCommits
	}
	n, err := run1(top, "rev-list", "--count", "HEAD.."+res.Branch)
	if err != nil {
		return nil, fmt.Errorf("worktree: count the commits of %s: %w", res.Branch, err)
	}
	if res.Commits, _ = strconv.Atoi(n); res.Commits == 0 {
		return res, nil // nothing the current branch does not already have
	}

	// The merge commit is the user's act, made as the user; only when git knows no identity at
	// all does troupe sign it, since no merge would be worse.
	var env []string
	if !hasIdentity(top) {
		env = troupeIdentity
	}
	if _, mergeErr := runEnv(top, env, "merge", "--no-ff", "--no-edit", "-m",
		fmt.Sprintf("Merge branch '%s' (troupe worktree %s)", res.Branch, name), res.Branch); mergeErr != nil {
		return nil, abortMerge(top, res, mergeErr)
	}
	if res.Commit, err = run1(top, "rev-parse", "HEAD"); err != nil {
		return nil, fmt.Errorf("worktree: merged %s, but: %w", res.Branch, err)
	}
	stat, err := run(top, "diff", "--stat", before+".."+res.Commit)
	if err != nil {
		return nil, fmt.Errorf("worktree: merged %s, but: %w", res.Branch, err)
	}
	res.DiffStat = strings.TrimRight(stat, "\n")
	return res, nil
}

// abortMerge undoes a merge that stopped half way, and says why it stopped.
func abortMerge(top string, res *MergeResult, mergeErr error) error {
	out, _ := run(top, "diff", "--name-only", "-z", "--diff-filter=U")
	var files []string
	for f := range strings.SplitSeq(out, "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	if _, err := run(top, "rev-parse", "-q", "--verify", "MERGE_HEAD"); err == nil {
		if _, err := run(top, "merge", "--abort"); err != nil {
			return fmt.Errorf("worktree: merging %s failed (%v), and so did git merge --abort: %w; run git merge --abort in %s", res.Branch, mergeErr, err, top)
		}
	}
	if len(files) > 0 {
		head, _ := run1(top, "rev-parse", "HEAD")
		return &ConflictError{Name: res.Name, Branch: res.Branch, Into: res.Into, IntoCommit: head, Files: files}
	}
	return fmt.Errorf("worktree: merge %s into %s: %w", res.Branch, res.Into, mergeErr)
}
