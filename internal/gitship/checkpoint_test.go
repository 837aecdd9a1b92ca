package gitship

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckpointRestore: a worktree checkpointed on one worker comes back on another exactly
// as the child left it: its own commits, its uncommitted edits, new and deleted files.
func TestCheckpointRestore(t *testing.T) {
	ctx := ctxT(t)
	js := startJS(t)
	objs, err := OpenObjects(ctx, js, "proj-5", 1)
	if err != nil {
		t.Fatal(err)
	}
	parent := newRepo(t)
	write(t, parent, "a.txt", "parent's uncommitted edit\n")
	src, _, err := Prepare(ctx, parent, "t1", objs, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dead, _ := NewCache(t.TempDir())
	co, err := dead.Checkout(ctx, "proj-5", "t1", src, objs)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := dead.Checkpoint(ctx, co, objs); err != nil || n != 0 {
		t.Fatalf("checkpoint of an untouched worktree: %d bytes, %v", n, err)
	}
	write(t, co.Path, "committed.txt", "the child committed this\n")
	git(t, co.Path, "add", "committed.txt")
	git(t, co.Path, "commit", "-q", "-m", "child's own commit")
	write(t, co.Path, "b.txt", "new, uncommitted\n")
	if err := os.Remove(filepath.Join(co.Path, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if n, err := dead.Checkpoint(ctx, co, objs); err != nil || n == 0 {
		t.Fatalf("first checkpoint: %d bytes, %v", n, err)
	}
	if n, err := dead.Checkpoint(ctx, co, objs); err != nil || n != 0 {
		t.Fatalf("checkpoint with nothing new: %d bytes, %v", n, err)
	}
	write(t, co.Path, "b.txt", "new, edited again\n")
	if n, err := dead.Checkpoint(ctx, co, objs); err != nil || n == 0 {
		t.Fatalf("second checkpoint: %d bytes, %v", n, err)
	}
	wantHead := git(t, co.Path, "rev-parse", "HEAD")
	wantStatus := git(t, co.Path, "status", "--porcelain")
	write(t, co.Path, "lost.txt", "written after the last checkpoint\n") // dies with the worker

	other, _ := NewCache(t.TempDir())
	co2, err := other.Checkout(ctx, "proj-5", "t1", src, objs)
	if err != nil {
		t.Fatal(err)
	}
	if co2.Start != co.Start {
		t.Fatalf("the parent's changes became another commit on redelivery: %s, was %s", co2.Start, co.Start)
	}
	ok, err := other.Restore(ctx, co2, objs)
	if err != nil || !ok {
		t.Fatalf("restore: %v, %v", ok, err)
	}
	if got := git(t, co2.Path, "rev-parse", "HEAD"); got != wantHead {
		t.Errorf("HEAD %s, want %s", got, wantHead)
	}
	if got := git(t, co2.Path, "status", "--porcelain"); got != wantStatus {
		t.Errorf("status %q, want %q", got, wantStatus)
	}
	if read(t, co2.Path, "b.txt") != "new, edited again\n" || read(t, co2.Path, "a.txt") != "parent's uncommitted edit\n" ||
		exists(co2.Path, "gone.txt") || exists(co2.Path, "lost.txt") {
		t.Error("the restored files differ from the last checkpoint")
	}
	res, err := other.Return(ctx, co2, objs, ReturnOptions{})
	if err != nil || !strings.Contains(res.DiffStat, "committed.txt") || !strings.Contains(res.DiffStat, "b.txt") {
		t.Fatalf("result after restore = %+v, %v", res, err)
	}
	if n, err := other.Checkpoint(ctx, co2, objs); err != nil {
		t.Fatalf("checkpoint after restore: %d, %v", n, err)
	}

	fresh, _ := NewCache(t.TempDir())
	co3, _ := fresh.Checkout(ctx, "proj-5", "t2", src, objs)
	if ok, err := fresh.Restore(ctx, co3, objs); ok || err != nil {
		t.Fatalf("a task never checkpointed restored: %v, %v", ok, err)
	}
}

// TestConcurrentCheckouts: a worker with several slots checks tasks out at the same moment
// from one cache, cold, and every one gets its worktree.
func TestConcurrentCheckouts(t *testing.T) {
	ctx := ctxT(t)
	js := startJS(t)
	objs, err := OpenObjects(ctx, js, "proj-6", 1)
	if err != nil {
		t.Fatal(err)
	}
	parent := newRepo(t)
	src, _, err := Prepare(ctx, parent, "t0", objs, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cache, _ := NewCache(t.TempDir())
	errs := make(chan error, 4)
	for i := range 4 {
		go func() {
			co, err := cache.Checkout(ctx, "proj-6", "slot"+string(rune('a'+i)), src, objs)
			if err == nil && !exists(co.Path, "a.txt") {
				err = os.ErrNotExist
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
