package gitship

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/troupe-dev/troupe/messages"
)

// Cache is a worker's repository cache (--repo-cache DIR): one bare repository per project,
// <dir>/<project>.git, holding every base it fetched, and the tasks' worktrees under
// <dir>/work/<project>/<task>. Its lock (a mutex, and a flock on <dir>/.lock) keeps two slots,
// and two worker processes sharing a directory, from changing its repositories' refs and
// worktree metadata at the same moment. The flock alone also serializes two Cache values on
// one directory in one process (each opens the file anew, and flock locks belong to the open
// file), so no process-wide registry of caches is needed.
type Cache struct {
	dir    string
	mu     sync.Mutex // one repository-changing git command set at a time per Cache
	shared sharing    // the read-only tasks' worktrees (shared.go)
}

// NewCache uses dir (created when missing) as the repository cache.
func NewCache(dir string) (*Cache, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("gitship: repository cache %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("gitship: create the repository cache: %w", err)
	}
	return &Cache{dir: abs}, nil
}

// Checkout is a task's worktree on a worker.
type Checkout struct {
	Task   string
	Path   string // the worktree
	Repo   string // the bare repository it belongs to
	Branch string // troupe/<task>
	Base   string // the parent's HEAD
	Start  string // Base, or the commit of the parent's uncommitted changes on top of it
	// Fetched is the bytes this checkout downloaded from the object store (bundles, patch).
	Fetched int64
	saved   string // "<head> <tree>" of the last checkpoint (checkpoint.go)
}

// lock takes the process mutex and the directory's file lock; the returned func releases both.
func (c *Cache) lock() (func(), error) {
	c.mu.Lock()
	f, err := os.OpenFile(filepath.Join(c.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("gitship: lock the repository cache: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		c.mu.Unlock()
		return nil, fmt.Errorf("gitship: lock the repository cache: %w", err)
	}
	return func() { f.Close(); c.mu.Unlock() }, nil
}

// repo returns the bare repository of project, created on first use.
func (c *Cache) repo(ctx context.Context, project string) (string, error) {
	dir := filepath.Join(c.dir, bucketSafe(project)+".git")
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err == nil {
		return dir, nil
	}
	if _, err := run(ctx, c.dir, "init", "-q", "--bare", dir); err != nil {
		return "", err
	}
	return dir, nil
}

// Checkout fetches src's base into the project's repository (from src.URL, or from the bundle
// chain in the object store), makes the worktree of task on branch troupe/<task> at the base,
// and applies the parent's uncommitted changes as one commit on top (so the child's own work
// stays apart from them). A worktree left by an earlier delivery of the task is replaced.
func (c *Cache) Checkout(ctx context.Context, project, task string, src *messages.TaskRepo, objs *Objects) (*Checkout, error) {
	if err := checkTask(task); err != nil {
		return nil, err
	}
	if src.Base == "" {
		return nil, errors.New("gitship: the task names no base commit")
	}
	repo, fetched, err := c.fetchBase(ctx, project, src, objs)
	if err != nil {
		return nil, err
	}
	co := &Checkout{Task: task, Repo: repo, Path: filepath.Join(c.dir, "work", bucketSafe(project), task),
		Branch: Branch(task), Base: src.Base, Start: src.Base, Fetched: fetched}
	if err := c.register(ctx, co); err != nil {
		return nil, err
	}
	// The files are checked out outside the cache's lock, so a worker's slots fill their
	// worktrees in parallel: this touches only the task's own worktree and index.
	if _, err := run(ctx, co.Path, "reset", "-q", "--hard"); err != nil {
		return nil, fmt.Errorf("gitship: check out %s: %w", task, err)
	}
	if err := ensureIgnored(co.Path); err != nil {
		return nil, fmt.Errorf("gitship: check out %s: %w", task, err)
	}
	if !src.Patch.Empty() {
		patch := src.Patch.Inline
		if src.Patch.Ref != nil {
			if err := objs.check(src.Patch.Ref); err != nil {
				return nil, fmt.Errorf("gitship: get the parent's uncommitted changes: %w", err)
			}
			if patch, err = objs.GetBytes(ctx, src.Patch.Ref.Name); err != nil {
				return nil, fmt.Errorf("gitship: get the parent's uncommitted changes: %w", err)
			}
			co.Fetched += int64(len(patch))
		}
		if _, err := (gitCmd{dir: co.Path, args: []string{"apply", "--binary", "--whitespace=nowarn", "-"}, stdin: bytes.NewReader(patch)}).run(ctx); err != nil {
			return nil, fmt.Errorf("gitship: apply the parent's uncommitted changes: %w", err)
		}
		// Dated like the base, so every delivery of the task makes the same commit: a restored
		// checkpoint (internal/taskstate) builds on it.
		if co.Start, _, err = commitAll(ctx, co.Path, "troupe: the parent's uncommitted changes", datedAs(ctx, co.Path, src.Base)...); err != nil {
			return nil, fmt.Errorf("gitship: commit the parent's uncommitted changes: %w", err)
		}
	}
	return co, nil
}

// fetchBase makes src's base present in the project's repository, under the cache's lock (one
// fetch of a base serves every slot waiting for it).
func (c *Cache) fetchBase(ctx context.Context, project string, src *messages.TaskRepo, objs *Objects) (string, int64, error) {
	unlock, err := c.lock()
	if err != nil {
		return "", 0, err
	}
	defer unlock()
	repo, err := c.repo(ctx, project)
	if err != nil {
		return "", 0, fmt.Errorf("gitship: repository cache for %s: %w", project, err)
	}
	fetched, err := c.ensure(ctx, repo, src, objs)
	if err != nil {
		return "", 0, fmt.Errorf("gitship: fetch base %s: %w", short(src.Base), err)
	}
	return repo, fetched, nil
}

// register adds the task's worktree to the repository (replacing one an earlier delivery
// left) without checking its files out, under the cache's lock: git's worktree metadata is not
// safe under concurrent adds and removes in one repository (a command reading every worktree
// dies on another's half-written worktrees/<id>/commondir), so every command that adds or
// removes a worktree, or reads them all (branch -D, fetch), holds the lock.
func (c *Cache) register(ctx context.Context, co *Checkout) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if err := co.remove(ctx); err != nil {
		return err
	}
	if _, err := run(ctx, co.Repo, "worktree", "add", "-q", "-f", "--no-checkout", "-B", co.Branch, co.Path, co.Base); err != nil {
		return fmt.Errorf("gitship: check out %s: %w", co.Task, err)
	}
	return nil
}

// remove deletes the task's worktree if an earlier delivery left it; the caller holds the
// cache's lock. A directory git no longer knows is removed by hand; its stale registration is
// overridden by worktree add -f.
func (co *Checkout) remove(ctx context.Context) error {
	if _, err := os.Stat(co.Path); err == nil {
		if _, err := run(ctx, co.Repo, "worktree", "remove", "--force", "--force", co.Path); err != nil {
			if err := os.RemoveAll(co.Path); err != nil {
				return fmt.Errorf("gitship: remove the old worktree of %s: %w", co.Task, err)
			}
		}
	}
	return nil
}

// Remove deletes the task's worktree and branch once its result is delivered.
func (c *Cache) Remove(ctx context.Context, co *Checkout) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if err := co.remove(ctx); err != nil {
		return err
	}
	_, _ = run(ctx, co.Repo, "branch", "-D", co.Branch)
	return nil
}

// ensure makes the base commit present in repo, and returns the bytes it downloaded from the
// object store.
func (c *Cache) ensure(ctx context.Context, repo string, src *messages.TaskRepo, objs *Objects) (int64, error) {
	if hasCommit(ctx, repo, src.Base) {
		return 0, nil
	}
	if src.URL != "" {
		return 0, fetchRemote(ctx, repo, src.URL, src.Base)
	}
	if objs == nil || src.Bundle == nil {
		return 0, errors.New("no shared remote, and no bundle in the object store to fetch it from")
	}
	if err := objs.check(src.Bundle); err != nil {
		return 0, err
	}
	var n int64
	err := fetchBundle(ctx, repo, src.Base, objs, map[string]bool{}, &n)
	return n, err
}

// fetchRemote fetches commit from url: by its id (protocol v2 serves any reachable commit),
// else every branch, and keeps it under refs/troupe/base/ so gc never drops it.
func fetchRemote(ctx context.Context, repo, url, commit string) error {
	keep := "refs/troupe/base/" + commit
	if err := move(ctx, repo, "fetch", "-q", "--no-tags", url, "+"+commit+":"+keep); err == nil {
		return nil
	}
	if err := move(ctx, repo, "fetch", "-q", "--no-tags", url, "+refs/heads/*:refs/remotes/origin/*"); err != nil {
		return err
	}
	if !hasCommit(ctx, repo, commit) {
		return fmt.Errorf("%s does not have commit %s; push it first, or run without a shared remote", url, short(commit))
	}
	_, err := run(ctx, repo, "update-ref", keep, commit)
	return err
}

// maxChain bounds how many bundles one fetch follows back through prerequisites.
const maxChain = 1000

// fetchBundle fetches bundle/<commit> into repo, first fetching the bundles of whichever of its
// prerequisites repo lacks.
func fetchBundle(ctx context.Context, repo, commit string, objs *Objects, seen map[string]bool, fetched *int64) error {
	if seen[commit] || len(seen) > maxChain {
		return fmt.Errorf("the bundles of %s form a loop or too long a chain", short(commit))
	}
	seen[commit] = true
	file, err := tempPath("troupe-base-*.bundle")
	if err != nil {
		return err
	}
	defer os.Remove(file)
	n, err := objs.GetFile(ctx, "bundle/"+commit, file)
	if err != nil {
		return err
	}
	*fetched += n
	prereqs, refs, err := bundleHeader(file)
	if err != nil {
		return err
	}
	for _, p := range prereqs {
		if !hasCommit(ctx, repo, p) {
			if err := fetchBundle(ctx, repo, p, objs, seen, fetched); err != nil {
				return err
			}
		}
	}
	if len(refs) == 0 {
		return fmt.Errorf("bundle/%s carries no ref", short(commit))
	}
	return move(ctx, repo, "fetch", "-q", "--no-tags", file, "+"+refs[0]+":refs/troupe/base/"+commit)
}

// bundleHeader reads a bundle's prerequisite commits and ref names (git's bundle format v2/v3:
// a signature line, optional @capabilities, "-<id> comment" prerequisites, "<id> <ref>" refs,
// then an empty line).
func bundleHeader(path string) (prereqs, refs []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	sig, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(sig, "# v") || !strings.Contains(sig, "git bundle") {
		return nil, nil, errors.New("not a git bundle")
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, nil, errors.New("a git bundle whose header does not end")
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			return prereqs, refs, nil
		case strings.HasPrefix(line, "@"):
		case strings.HasPrefix(line, "-"):
			id, _, _ := strings.Cut(line[1:], " ")
			prereqs = append(prereqs, id)
		default:
			_, ref, _ := strings.Cut(line, " ")
			refs = append(refs, ref)
		}
	}
}

// ReturnOptions say how a writing child's branch goes back.
type ReturnOptions struct {
	Message string // the commit message of the child's uncommitted work
	// PushURL, when set, pushes the branch there (as RemoteRef) instead of bundling it.
	PushURL string
}

// Return commits whatever the child left uncommitted in its worktree and sends its branch back:
// pushed to opt.PushURL (falling back to the bundle when the push fails), or as result/<task> in the object store (a bundle whose prerequisite
// is the base the parent sent, so it holds only the new commits). A child that changed nothing
// returns a Result with no Branch.
func (c *Cache) Return(ctx context.Context, co *Checkout, objs *Objects, opt ReturnOptions) (*Result, error) {
	msg := opt.Message
	if strings.TrimSpace(msg) == "" {
		msg = "troupe: " + co.Task
	}
	tip, _, err := commitAll(ctx, co.Path, msg)
	if err != nil {
		return nil, fmt.Errorf("gitship: commit the work of %s: %w", co.Task, err)
	}
	res := &Result{Commit: tip}
	if tip == co.Start {
		return res, nil
	}
	res.Branch = co.Branch
	if res.DiffStat, err = run(ctx, co.Path, "diff", "--stat", co.Start+".."+tip); err != nil {
		return nil, fmt.Errorf("gitship: diff the work of %s: %w", co.Task, err)
	}
	if opt.PushURL != "" {
		// Only troupe's own ref, never a branch; a remote that refuses it (no push rights from
		// this machine) gets the bundle instead.
		err := move(ctx, co.Path, "push", "-q", "--force", opt.PushURL, "refs/heads/"+co.Branch+":"+RemoteRef(co.Branch))
		if err == nil {
			res.Pushed = true
			return res, nil
		}
		res.PushErr = err
	}
	file, err := tempPath("troupe-result-*.bundle")
	if err != nil {
		return nil, err
	}
	defer os.Remove(file)
	if err := move(ctx, co.Path, "bundle", "create", "-q", file, "refs/heads/"+co.Branch, "^"+co.Base); err != nil {
		return nil, fmt.Errorf("gitship: bundle %s: %w", co.Branch, err)
	}
	if res.Bundle, err = objs.PutFile(ctx, "result/"+co.Task, file); err != nil {
		return nil, fmt.Errorf("gitship: send %s back: %w", co.Branch, err)
	}
	return res, nil
}
