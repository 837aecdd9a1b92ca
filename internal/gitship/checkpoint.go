package gitship

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// The checkpoint of a task's worktree is one commit on top of the worktree's HEAD whose tree is
// the worktree as `git add -A` would stage it, built in a copy of the index so the child's own
// index is untouched, and sent as ckpt/<task>: a bundle of everything since the base. The
// branch and HEAD do not move; a restore puts HEAD back where it was and the files as they were.

// ckptRef is where a worktree's checkpoint commit lives in the repository cache.
func ckptRef(task string) string { return "refs/troupe/ckpt/" + task }

// ckptName is the checkpoint's object name.
func ckptName(task string) string { return "ckpt/" + task }

// Checkpoint saves the worktree to the object store if it changed since the last checkpoint (or
// since Start). It reports whether it uploaded one, and how many bytes.
func (c *Cache) Checkpoint(ctx context.Context, co *Checkout, objs *Objects) (int64, error) {
	tree, err := worktreeTree(ctx, co.Path)
	if err != nil {
		return 0, fmt.Errorf("gitship: checkpoint %s: %w", co.Task, err)
	}
	head, err := run(ctx, co.Path, "rev-parse", "HEAD")
	if err != nil {
		return 0, fmt.Errorf("gitship: checkpoint %s: %w", co.Task, err)
	}
	if head+" "+tree == co.saved {
		return 0, nil
	}
	if co.saved == "" && head == co.Start {
		if startTree, _ := run(ctx, co.Path, "rev-parse", "HEAD^{tree}"); startTree == tree {
			return 0, nil // nothing written yet
		}
	}
	commit, err := gitCmd{dir: co.Path, env: append(datedAs(ctx, co.Path, head), troupeIdentity...),
		args: []string{"commit-tree", tree, "-p", head, "-m", "troupe: checkpoint of " + co.Task}}.run(ctx)
	if err != nil {
		return 0, fmt.Errorf("gitship: checkpoint %s: %w", co.Task, err)
	}
	commit = strings.TrimSpace(commit)
	if _, err := run(ctx, co.Path, "update-ref", ckptRef(co.Task), commit); err != nil {
		return 0, fmt.Errorf("gitship: checkpoint %s: %w", co.Task, err)
	}
	file, err := tempPath("troupe-ckpt-*.bundle")
	if err != nil {
		return 0, err
	}
	defer os.Remove(file)
	if err := move(ctx, co.Path, "bundle", "create", "-q", file, ckptRef(co.Task), "^"+co.Base); err != nil {
		return 0, fmt.Errorf("gitship: checkpoint %s: %w", co.Task, err)
	}
	ref, err := objs.PutFile(ctx, ckptName(co.Task), file)
	if err != nil {
		return 0, fmt.Errorf("gitship: checkpoint %s: %w", co.Task, err)
	}
	co.saved = head + " " + tree
	return ref.Bytes, nil
}

// worktreeTree writes the tree of everything in the worktree (as git add -A would stage it)
// using a copy of its index, and returns the tree's id.
func worktreeTree(ctx context.Context, dir string) (string, error) {
	tmp, err := tempPath("troupe-index-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	idx, err := run(ctx, dir, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return "", err
	}
	if err := copyFile(idx, tmp); err != nil {
		return "", err
	}
	env := []string{"GIT_INDEX_FILE=" + tmp}
	if _, err := (gitCmd{dir: dir, env: env, args: []string{"add", "-A"}}).run(ctx); err != nil {
		return "", err
	}
	tree, err := gitCmd{dir: dir, env: env, args: []string{"write-tree"}}.run(ctx)
	return strings.TrimSpace(tree), err
}

// Restore puts the worktree back as its last checkpoint left it, if there is one: HEAD (and
// the branch) where the child had it, the files as they were, uncommitted as they were. It
// reports whether a checkpoint was found. Call it right after Checkout, before the child runs.
func (c *Cache) Restore(ctx context.Context, co *Checkout, objs *Objects) (bool, error) {
	file, err := tempPath("troupe-ckpt-*.bundle")
	if err != nil {
		return false, err
	}
	defer os.Remove(file)
	n, err := objs.GetFile(ctx, ckptName(co.Task), file)
	if errors.Is(err, ErrMissing) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("gitship: restore %s: %w", co.Task, err)
	}
	co.Fetched += n
	unlock, err := c.lock()
	if err != nil {
		return false, err
	}
	err = move(ctx, co.Repo, "fetch", "-q", "--no-tags", file, "+"+ckptRef(co.Task)+":"+ckptRef(co.Task))
	unlock()
	if err != nil {
		return false, fmt.Errorf("gitship: restore %s from its checkpoint: %w", co.Task, err)
	}
	ckpt := ckptRef(co.Task)
	head, err := run(ctx, co.Path, "rev-parse", ckpt+"^")
	if err != nil {
		return false, fmt.Errorf("gitship: restore %s: %w", co.Task, err)
	}
	steps := [][]string{
		{"reset", "-q", "--hard", head},      // the branch where the child had it
		{"read-tree", "-u", "--reset", ckpt}, // the files as checkpointed
		{"reset", "-q"},                      // uncommitted again, as they were
	}
	for _, args := range steps {
		if _, err := run(ctx, co.Path, args...); err != nil {
			return false, fmt.Errorf("gitship: restore %s: %w", co.Task, err)
		}
	}
	tree, _ := run(ctx, co.Path, "rev-parse", ckpt+"^{tree}")
	co.saved = head + " " + tree
	return true, nil
}
