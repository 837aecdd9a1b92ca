package gitship

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/messages"
)

// PrepareOptions say how a task's code leaves the parent.
type PrepareOptions struct {
	// URL is a shared remote the workers can reach (remote.go); "" sends the base as a bundle
	// through the object store.
	URL string
}

// Prepare captures the parent's checkout at root for task: HEAD as the base, the uncommitted
// changes (tracked and untracked-not-ignored, binary-safe) as a patch (inline when small, else
// patch/<task>), and, unless the shared remote opt.URL holds the base, a bundle holding it
// (bundle/<base>). It returns what the SpawnTask carries (its URL empty when the remote could
// not be used: Fallback says why) and the bytes it uploaded. The user's index, branches and
// files are not touched. It is Capture then Snapshot.ForTask.
func Prepare(ctx context.Context, root, task string, objs *Objects, opt PrepareOptions) (*messages.TaskRepo, int64, error) {
	if err := checkTask(task); err != nil {
		return nil, 0, err
	}
	snap, err := Capture(ctx, root, objs, opt)
	if err != nil {
		return nil, 0, err
	}
	repo, sent, err := snap.ForTask(ctx, task, objs)
	return repo, sent + snap.Sent, err
}

// Snapshot is the parent's checkout as Capture found it: what every task spawned from it
// carries. Capturing runs several git commands and may upload a bundle, so a Node sending a
// burst of tasks captures once for all the tasks asked for by then (actors/dispatch_capture.go)
// instead of once per task.
type Snapshot struct {
	repo  messages.TaskRepo // URL, Base, Bundle
	patch []byte            // the uncommitted changes (empty: none)
	Sent  int64             // the bytes Capture uploaded (a new bundle)
}

// Capture reads the parent's checkout at root: HEAD as the base, the uncommitted changes, and,
// unless the shared remote opt.URL holds the base, makes sure the bundle holding the base is in
// the object store (the snapshot's URL is then empty).
func Capture(ctx context.Context, root string, objs *Objects, opt PrepareOptions) (*Snapshot, error) {
	top, err := run(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("gitship: %s is not in a git repository (run git init, or keep the child local): %w", root, err)
	}
	base, err := run(ctx, top, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil || base == "" {
		return nil, errors.New("gitship: the repository has no commits yet, so there is nothing to send a worker; make a first commit, or keep the child local")
	}
	snap := &Snapshot{repo: messages.TaskRepo{Base: base}}
	if opt.URL != "" {
		if ok, err := remoteHas(ctx, top, opt.URL, base); err == nil && ok {
			snap.repo.URL = opt.URL
		}
	}
	if snap.patch, err = uncommitted(ctx, top, base); err != nil {
		return nil, fmt.Errorf("gitship: capture uncommitted changes: %w", err)
	}
	if snap.repo.URL == "" {
		ref, n, err := publish(ctx, top, base, objs)
		if err != nil {
			return nil, fmt.Errorf("gitship: publish base %s: %w", short(base), err)
		}
		snap.repo.Bundle, snap.Sent = ref, n
	}
	return snap, nil
}

// ForTask is what task's SpawnTask carries of the snapshot: the patch inline when small, else
// stored as patch/<task> (each task's own, so each is forgotten with its task); it returns the
// bytes it uploaded.
func (s *Snapshot) ForTask(ctx context.Context, task string, objs *Objects) (*messages.TaskRepo, int64, error) {
	if err := checkTask(task); err != nil {
		return nil, 0, err
	}
	repo := s.repo
	switch {
	case len(s.patch) == 0:
	case len(s.patch) <= maxInlinePatch:
		repo.Patch = &messages.Blob{Inline: s.patch}
	default:
		ref, err := objs.PutBytes(ctx, "patch/"+task, s.patch)
		if err != nil {
			return nil, 0, fmt.Errorf("gitship: store the uncommitted changes: %w", err)
		}
		repo.Patch = &messages.Blob{Ref: ref}
		return &repo, ref.Bytes, nil
	}
	return &repo, 0, nil
}

// uncommitted returns `git diff --binary` from base to the working tree as git add -A would
// stage it, built in a copy of the index so the user's own index is never written.
func uncommitted(ctx context.Context, top, base string) ([]byte, error) {
	tmp, err := os.CreateTemp("", "troupe-index-*")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	env := []string{"GIT_INDEX_FILE=" + tmp.Name()}
	// Starting from a copy of the real index keeps its stat cache: only changed files are hashed.
	if idx, err := run(ctx, top, "rev-parse", "--path-format=absolute", "--git-path", "index"); err == nil {
		if err := copyFile(idx, tmp.Name()); err != nil {
			os.Remove(tmp.Name()) // no index yet: start from HEAD's tree below
		}
	}
	if _, err := os.Stat(tmp.Name()); err != nil {
		if _, err := (gitCmd{dir: top, env: env, args: []string{"read-tree", base}}).run(ctx); err != nil {
			return nil, err
		}
	}
	if _, err := (gitCmd{dir: top, env: env, args: []string{"add", "-A"}}).run(ctx); err != nil {
		return nil, err
	}
	tree, err := gitCmd{dir: top, env: env, args: []string{"write-tree"}}.run(ctx)
	if err != nil {
		return nil, err
	}
	out, err := gitCmd{dir: top, args: []string{"diff", "--binary", "--full-index", "--no-renames", "--no-ext-diff", "--no-textconv", base, strings.TrimSpace(tree)}, timeout: moveTimeout}.run(ctx)
	return []byte(out), err
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// maxBasis bounds how many published bundles Prepare considers as the basis of a new one.
const maxBasis = 32

// publish makes sure bundle/<base> is in the object store and returns its name and the bytes
// uploaded. A new bundle leaves out what earlier bundles already carry (their tips that are
// ancestors of base become its prerequisites), so a worker that has them fetches only the
// difference, and one that has not fetches the chain (Cache.ensure).
func publish(ctx context.Context, top, base string, objs *Objects) (*messages.ObjectRef, int64, error) {
	name := "bundle/" + base
	if info, err := objs.os.GetInfo(ctx, name); err == nil {
		return objs.ref(info), 0, nil
	} else if !errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, 0, err
	}
	infos, err := objs.os.List(ctx)
	if err != nil && !isNoObjects(err) {
		return nil, 0, fmt.Errorf("list published bundles: %w", err)
	}
	var basis []string
	for i := len(infos) - 1; i >= 0 && len(basis) < maxBasis; i-- { // newest first
		tip, ok := strings.CutPrefix(infos[i].Name, "bundle/")
		if !ok || tip == base || !hasCommit(ctx, top, tip) {
			continue
		}
		if _, err := run(ctx, top, "merge-base", "--is-ancestor", tip, base); err == nil {
			basis = append(basis, "^"+tip)
		}
	}
	tmp, err := tempRef(ctx, top, base)
	if err != nil {
		return nil, 0, err
	}
	defer run(context.WithoutCancel(ctx), top, "update-ref", "-d", tmp) //nolint:errcheck // a leftover temp ref is harmless
	file, err := tempPath("troupe-bundle-*.bundle")
	if err != nil {
		return nil, 0, err
	}
	defer os.Remove(file)
	if err := move(ctx, top, append([]string{"bundle", "create", "-q", file, tmp}, basis...)...); err != nil {
		return nil, 0, err
	}
	ref, err := objs.PutFile(ctx, name, file)
	if err != nil {
		return nil, 0, err
	}
	return ref, ref.Bytes, nil
}

// isNoObjects is List's answer for an empty bucket.
func isNoObjects(err error) bool { return errors.Is(err, jetstream.ErrNoObjectsFound) }

// tempRef points a throwaway ref at commit, since git bundle carries refs, not bare commits.
func tempRef(ctx context.Context, dir, commit string) (string, error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	ref := "refs/troupe/ship/" + hex.EncodeToString(b[:])
	_, err := run(ctx, dir, "update-ref", ref, commit)
	return ref, err
}

// tempPath names a fresh temporary file (created empty; git bundle create overwrites it).
func tempPath(pattern string) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", err
	}
	f.Close()
	return f.Name(), nil
}

func short(sha string) string { return sha[:min(len(sha), 12)] }

// Import brings a writing child's returned branch (res.Branch, from res.Bundle, or from the
// shared remote url, where it was pushed as RemoteRef) into the parent's checkout at root as branch
// troupe/<name> with its worktree in .troupe/worktrees/<name>, exactly where a local child's
// work would be, so `troupe worktree list|merge|drop <name>` treat it the same; base is the
// commit the parent sent. Importing the same result twice is harmless; a different branch
// already under that name is refused.
func Import(ctx context.Context, root, name, base string, res *messages.AgentResult, objs *Objects, url string) error {
	if err := checkTask(name); err != nil {
		return err
	}
	if res == nil || res.Branch == "" {
		return nil // the child changed nothing
	}
	top, err := run(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		return fmt.Errorf("gitship: import %s: %s is not in a git repository: %w", name, root, err)
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	incoming := "refs/troupe/import/" + name
	refspec := "+refs/heads/" + res.Branch + ":" + incoming
	if !strings.HasPrefix(res.Branch, BranchPrefix) {
		return fmt.Errorf("gitship: import %s: %q is not a task's branch", name, res.Branch)
	}
	switch {
	case res.Bundle != nil:
		if err := objs.check(res.Bundle); err != nil {
			return fmt.Errorf("gitship: import %s: %w", name, err)
		}
		file, err := tempPath("troupe-result-*.bundle")
		if err != nil {
			return err
		}
		defer os.Remove(file)
		if _, err := objs.GetFile(ctx, res.Bundle.Name, file); err != nil {
			return fmt.Errorf("gitship: import %s: %w", name, err)
		}
		if err := move(ctx, top, "fetch", "-q", "--no-tags", file, refspec); err != nil {
			return fmt.Errorf("gitship: import %s from its bundle: %w", name, err)
		}
	case url != "":
		if err := move(ctx, top, "fetch", "-q", "--no-tags", url, "+"+RemoteRef(res.Branch)+":"+incoming); err != nil {
			return fmt.Errorf("gitship: import %s from %s: %w", name, url, err)
		}
	default:
		return fmt.Errorf("gitship: import %s: the result names no bundle and there is no shared remote to fetch %s from", name, res.Branch)
	}
	defer run(context.WithoutCancel(ctx), top, "update-ref", "-d", incoming) //nolint:errcheck // a leftover ref is harmless
	tip, err := run(ctx, top, "rev-parse", incoming)
	if err != nil {
		return fmt.Errorf("gitship: import %s: %w", name, err)
	}
	branch := Branch(name)
	if cur, err := run(ctx, top, "rev-parse", "-q", "--verify", "refs/heads/"+branch); err == nil {
		if cur == tip {
			return nil
		}
		return fmt.Errorf("gitship: import %s: branch %s already exists at another commit; merge or drop it first (troupe worktree drop %s)", name, branch, name)
	}
	if _, err := run(ctx, top, "update-ref", "refs/heads/"+branch, tip, ""); err != nil {
		return fmt.Errorf("gitship: import %s: %w", name, err)
	}
	if base != "" {
		if _, err := run(ctx, top, "config", "branch."+branch+".troupebase", base); err != nil {
			return fmt.Errorf("gitship: import %s: record its base: %w", name, err)
		}
	}
	if err := ensureIgnored(top); err != nil {
		return fmt.Errorf("gitship: import %s: %w", name, err)
	}
	wt := filepath.Join(top, ".troupe", "worktrees", name)
	_, _ = run(ctx, top, "worktree", "prune")
	if _, err := run(ctx, top, "worktree", "add", "-q", wt, branch); err != nil {
		return fmt.Errorf("gitship: import %s: check out its worktree: %w", name, err)
	}
	return ensureIgnored(wt)
}

// Fallback says why a task prepared with the shared remote url goes as a bundle after all
// (repo.URL is empty): the remote lacks its base, or cannot be reached from here.
func Fallback(ctx context.Context, root, url string, repo *messages.TaskRepo) string {
	if url == "" || repo.URL != "" {
		return ""
	}
	if _, err := run(ctx, root, "ls-remote", "--heads", url); err != nil {
		return fmt.Sprintf("the shared remote %s cannot be reached (%v): the code goes to workers as bundles through the object store", url, err)
	}
	return fmt.Sprintf("the shared remote %s does not have commit %s (push it to share the code that way): the code goes to workers as bundles through the object store", url, short(repo.Base))
}
