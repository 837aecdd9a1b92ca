package gitship

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// TestBundleRoundTrip ships a dirty checkout to a worker through the object store, has the
// child write, and merges its returned branch with tools/worktree like a local child's.
func TestBundleRoundTrip(t *testing.T) {
	ctx := ctxT(t)
	js := startJS(t)
	objs, err := OpenObjects(ctx, js, "proj-1", 1)
	if err != nil {
		t.Fatal(err)
	}
	parent := newRepo(t)
	write(t, parent, "a.txt", "one\ntwo\n")                // tracked, modified
	write(t, parent, "new/untracked.txt", "fresh\n")       // untracked, not ignored
	write(t, parent, "pic.bin", "\x89PNG\x00\x00\xfe\xff") // untracked binary
	write(t, parent, "debug.log", "ignored\n")             // ignored: stays home
	if err := os.Remove(filepath.Join(parent, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	big := fmt.Sprintf("%x", sha256.Sum256([]byte("x")))
	write(t, parent, "large.txt", strings.Repeat(big+"\n", 2000)) // a patch too big to travel inline
	indexBefore := git(t, parent, "status", "--porcelain")

	src, sent, err := Prepare(ctx, parent, "task-1", objs, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if src.Base != git(t, parent, "rev-parse", "HEAD") || src.Bundle == nil || src.Patch.Ref == nil || sent == 0 {
		t.Fatalf("source = %+v", src)
	}
	if src.Bundle.Bucket != objs.Bucket() || src.Bundle.Bytes == 0 || !strings.HasPrefix(src.Bundle.Digest, "SHA-256=") {
		t.Fatalf("bundle ref = %+v", src.Bundle)
	}
	if got := git(t, parent, "status", "--porcelain"); got != indexBefore {
		t.Fatalf("Prepare changed the user's index: %q, was %q", got, indexBefore)
	}
	if refs := git(t, parent, "for-each-ref", "refs/troupe/"); refs != "" {
		t.Fatalf("Prepare left refs behind: %s", refs)
	}

	cache, err := NewCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	co, err := cache.Checkout(ctx, "proj-1", "task-1", src, objs)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.txt": "one\ntwo\n", "new/untracked.txt": "fresh\n",
		"pic.bin": "\x89PNG\x00\x00\xfe\xff", "bin.dat": "\x00\x01\x02binary\xff"} {
		if got := read(t, co.Path, name); got != want {
			t.Errorf("worker's %s = %q, want %q", name, got, want)
		}
	}
	if exists(co.Path, "gone.txt") || exists(co.Path, "debug.log") {
		t.Error("the worker's worktree has a deleted or an ignored file")
	}
	if co.Start == co.Base {
		t.Error("the parent's changes were not committed apart from the child's work")
	}

	// The child writes; its troupe state must not travel back.
	write(t, co.Path, "child.txt", "made by the child\n")
	write(t, co.Path, ".troupe/state", "private\n")
	res, err := cache.Return(ctx, co, objs, ReturnOptions{Message: "child work"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Branch != "troupe/task-1" || res.Bundle == nil || !strings.Contains(res.DiffStat, "child.txt") {
		t.Fatalf("result = %+v", res)
	}

	// The parent commits its own changes, imports the branch and merges it as a local result.
	git(t, parent, "add", "-A")
	git(t, parent, "commit", "-q", "-m", "the parent's work")
	ar := &messages.AgentResult{Branch: res.Branch, Bundle: res.Bundle, DiffStat: res.DiffStat}
	if err := Import(ctx, parent, "task-1", src.Base, ar, objs, ""); err != nil {
		t.Fatal(err)
	}
	if err := Import(ctx, parent, "task-1", src.Base, ar, objs, ""); err != nil {
		t.Fatalf("a second import of the same result: %v", err)
	}
	list, err := worktree.List(parent)
	if err != nil || len(list) != 1 || list[0].Name != "task-1" {
		t.Fatalf("worktree list = %+v, %v", list, err)
	}
	m, err := worktree.Merge(parent, "task-1")
	if err != nil {
		t.Fatal(err)
	}
	if m.Commit == "" || read(t, parent, "child.txt") != "made by the child\n" || exists(parent, ".troupe/state") {
		t.Fatalf("merge = %+v", m)
	}
	if err := objs.Forget(ctx, "task-1"); err != nil {
		t.Fatal(err)
	}
}

// TestIncrementalBundles: a second base is published as the difference from the first, and a
// fresh worker still fetches it by following the chain.
func TestIncrementalBundles(t *testing.T) {
	ctx := ctxT(t)
	js := startJS(t)
	objs, err := OpenObjects(ctx, js, "proj-2", 1)
	if err != nil {
		t.Fatal(err)
	}
	parent := newRepo(t)
	var big strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&big, "line %d: %x\n", i, sha256.Sum256([]byte(fmt.Sprint(i))))
	}
	write(t, parent, "big.txt", big.String())
	git(t, parent, "add", "-A")
	git(t, parent, "commit", "-q", "-m", "big")
	first, firstSent, err := Prepare(ctx, parent, "t1", objs, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, sent, err := Prepare(ctx, parent, "t2", objs, PrepareOptions{})
	if err != nil || sent != 0 || *again.Bundle != *first.Bundle {
		t.Fatalf("the same base again uploaded %d bytes (%+v, %v)", sent, again, err)
	}
	warm, _ := NewCache(t.TempDir())
	if _, err := warm.Checkout(ctx, "proj-2", "t1", first, objs); err != nil {
		t.Fatal(err)
	}

	write(t, parent, "small.txt", "a little change\n")
	git(t, parent, "add", "-A")
	git(t, parent, "commit", "-q", "-m", "small")
	second, secondSent, err := Prepare(ctx, parent, "t3", objs, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if secondSent == 0 || secondSent*10 > firstSent {
		t.Fatalf("second bundle %d bytes, first %d: not incremental", secondSent, firstSent)
	}
	for name, c := range map[string]*Cache{"warm": warm, "cold": must(NewCache(t.TempDir()))} {
		co, err := c.Checkout(ctx, "proj-2", "t3", second, objs)
		if err != nil {
			t.Fatalf("%s worker: %v", name, err)
		}
		if name == "warm" && co.Fetched != secondSent || name == "cold" && co.Fetched != firstSent+secondSent {
			t.Errorf("%s worker fetched %d bytes (bundles: %d, %d)", name, co.Fetched, firstSent, secondSent)
		}
		if read(t, co.Path, "small.txt") != "a little change\n" || !exists(co.Path, "big.txt") {
			t.Fatalf("%s worker's checkout is wrong", name)
		}
	}
}

// TestSharedRemote: with a remote both sides reach, nothing goes through the object store but
// the patch, and the branch comes back pushed.
func TestSharedRemote(t *testing.T) {
	ctx := ctxT(t)
	js := startJS(t)
	objs, err := OpenObjects(ctx, js, "proj-3", 1)
	if err != nil {
		t.Fatal(err)
	}
	remote := t.TempDir()
	git(t, remote, "init", "-q", "--bare")
	parent := newRepo(t)
	git(t, parent, "push", "-q", remote, "main")
	write(t, parent, "gone.txt", "kept, edited\n")
	src, sent, err := Prepare(ctx, parent, "t1", objs, PrepareOptions{URL: remote})
	if err != nil || src.Bundle != nil || len(src.Patch.Inline) == 0 || sent != 0 {
		t.Fatalf("source = %+v, %v", src, err)
	}
	git(t, parent, "commit", "-qam", "the parent's edit")
	cache, _ := NewCache(t.TempDir())
	co, err := cache.Checkout(ctx, "proj-3", "t1", src, objs)
	if err != nil {
		t.Fatal(err)
	}
	// A second delivery of the task replaces the worktree the first one left.
	write(t, co.Path, "half.txt", "from the dead attempt\n")
	co, err = cache.Checkout(ctx, "proj-3", "t1", src, objs)
	if err != nil || exists(co.Path, "half.txt") {
		t.Fatalf("redelivered checkout: %v (stale file kept: %v)", err, exists(co.Path, "half.txt"))
	}
	write(t, co.Path, "a.txt", "changed by the child\n")
	res, err := cache.Return(ctx, co, objs, ReturnOptions{PushURL: remote})
	if err != nil || !res.Pushed || res.Bundle != nil {
		t.Fatalf("result = %+v, %v", res, err)
	}
	mainBefore := git(t, remote, "rev-parse", "main")
	// Pushed as troupe's own ref, never as a branch of the remote.
	if got := git(t, remote, "for-each-ref", "--format=%(refname)"); got != "refs/heads/main\nrefs/troupe/t1" {
		t.Fatalf("the remote's refs after the push:\n%s", got)
	}
	if err := Import(ctx, parent, "t1", src.Base, &messages.AgentResult{Branch: res.Branch}, objs, remote); err != nil {
		t.Fatal(err)
	}
	if err := Unpush(ctx, parent, remote, res.Branch); err != nil {
		t.Fatal(err)
	}
	if got := git(t, remote, "for-each-ref", "--format=%(refname)"); got != "refs/heads/main" || git(t, remote, "rev-parse", "main") != mainBefore {
		t.Fatalf("the remote's refs after the parent fetched the work:\n%s", got)
	}
	if _, err := worktree.Merge(parent, "t1"); err != nil {
		t.Fatal(err)
	}
	if read(t, parent, "a.txt") != "changed by the child\n" {
		t.Fatal("the pushed branch was not merged")
	}
	// A child that changes nothing returns no branch.
	co2, _ := cache.Checkout(ctx, "proj-3", "t2", src, objs)
	if res, err := cache.Return(ctx, co2, objs, ReturnOptions{}); err != nil || res.Branch != "" {
		t.Fatalf("unchanged child's result = %+v, %v", res, err)
	}
}

// TestSharedRemoteWithoutTheBase: a base the shared remote lacks (an unpushed commit) goes as a
// bundle, and nothing of the user's is pushed; Fallback says why, as it does for a remote that
// cannot be reached. A base that is an ancestor of a remote branch counts as there.
func TestSharedRemoteWithoutTheBase(t *testing.T) {
	ctx := ctxT(t)
	js := startJS(t)
	objs, _ := OpenObjects(ctx, js, "proj-5", 1)
	remote := t.TempDir()
	git(t, remote, "init", "-q", "--bare")
	parent := newRepo(t)
	git(t, parent, "push", "-q", remote, "main")
	older := git(t, parent, "rev-parse", "HEAD")
	write(t, parent, "new.txt", "not pushed\n")
	git(t, parent, "add", "-A")
	git(t, parent, "commit", "-qm", "unpushed")
	src, _, err := Prepare(ctx, parent, "t1", objs, PrepareOptions{URL: remote})
	if err != nil || src.URL != "" || src.Bundle == nil {
		t.Fatalf("source = %+v, %v", src, err)
	}
	if why := Fallback(ctx, parent, remote, src); !strings.Contains(why, "does not have commit") {
		t.Fatalf("fallback = %q", why)
	}
	if got := git(t, remote, "rev-parse", "main"); got != older {
		t.Fatal("the remote changed")
	}
	gone := filepath.Join(t.TempDir(), "gone.git")
	if src, _, err := Prepare(ctx, parent, "t2", objs, PrepareOptions{URL: gone}); err != nil || src.URL != "" || src.Bundle == nil {
		t.Fatalf("unreachable remote: %+v, %v", src, err)
	} else if why := Fallback(ctx, parent, gone, src); !strings.Contains(why, "cannot be reached") || strings.Contains(why, "\n") {
		t.Fatalf("fallback = %q", why)
	}
	// Once pushed further, the same commit is there; its parent commit is too.
	git(t, parent, "push", "-q", remote, "main")
	git(t, parent, "checkout", "-q", older)
	if src, _, err := Prepare(ctx, parent, "t3", objs, PrepareOptions{URL: remote}); err != nil || src.URL != remote || src.Bundle != nil {
		t.Fatalf("an ancestor of the remote's main: %+v, %v", src, err)
	}
	// origin's URL, made absolute when the remote is a relative path.
	git(t, parent, "remote", "add", "origin", "../"+filepath.Base(remote))
	if got := OriginURL(ctx, parent); got != filepath.Join(filepath.Dir(parent), filepath.Base(remote)) {
		t.Fatalf("origin = %q", got)
	}
	for _, u := range []string{"git@github.com:o/r.git", "https://h/o/r", "/abs/r.git"} {
		if got := absRemote(parent, u); got != u {
			t.Errorf("absRemote(%q) = %q", u, got)
		}
	}
}

// TestPlainErrors: the failures a user can meet say what to do, on one line.
func TestPlainErrors(t *testing.T) {
	ctx := ctxT(t)
	js := startJS(t)
	objs, _ := OpenObjects(ctx, js, "proj-4", 1)
	empty := t.TempDir()
	git(t, empty, "init", "-q")
	_, _, err := Prepare(ctx, empty, "t1", objs, PrepareOptions{})
	if err == nil || !strings.Contains(err.Error(), "no commits") {
		t.Fatalf("no commits: %v", err)
	}
	if _, _, err := Prepare(ctx, t.TempDir(), "t1", objs, PrepareOptions{}); err == nil || !strings.Contains(err.Error(), "not in a git repository") {
		t.Fatalf("not a repository: %v", err)
	}
	if _, _, err := Prepare(ctx, empty, "../x", objs, PrepareOptions{}); err == nil {
		t.Fatal("a task name with a path in it was accepted")
	}
	cache, _ := NewCache(t.TempDir())
	_, err = cache.Checkout(ctx, "proj-4", "t1", &messages.TaskRepo{Base: strings.Repeat("ab", 20), Bundle: &messages.ObjectRef{Name: "bundle/" + strings.Repeat("ab", 20)}}, objs)
	if !errors.Is(err, ErrMissing) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("missing bundle: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
