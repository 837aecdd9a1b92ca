package gitship

import (
	"fmt"
	"sync"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// TestConcurrentPrepares: git's worktree metadata is not safe under concurrent adds and
// removes in one repository (a reader of a half-written worktrees/<id>/commondir dies with
// "failed to read ...commondir"). Many slots of two workers sharing one --repo-cache (two
// Cache values on one directory, as two processes have) check tasks out, and remove them, at
// the same moment, round after round: every checkout gets its worktree, every removal works.
func TestConcurrentPrepares(t *testing.T) {
	ctx := ctxT(t)
	parent := newRepo(t)
	src := &messages.TaskRepo{URL: parent, Base: git(t, parent, "rev-parse", "HEAD")}
	dir := t.TempDir()
	caches := make([]*Cache, 2)
	for i := range caches {
		c, err := NewCache(dir)
		if err != nil {
			t.Fatal(err)
		}
		caches[i] = c
	}
	const slots, rounds = 12, 4
	for round := range rounds {
		var wg sync.WaitGroup
		errs := make(chan error, slots)
		for i := range slots {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := caches[i%len(caches)]
				task := fmt.Sprintf("r%d-s%d", round, i)
				co, err := c.Checkout(ctx, "proj-lock", task, src, nil)
				if err != nil {
					errs <- fmt.Errorf("checkout %s: %w", task, err)
					return
				}
				if !exists(co.Path, "a.txt") {
					errs <- fmt.Errorf("checkout %s: no a.txt in its worktree", task)
					return
				}
				if err := c.Remove(ctx, co); err != nil {
					errs <- fmt.Errorf("remove %s: %w", task, err)
					return
				}
				if exists(co.Path, "a.txt") {
					errs <- fmt.Errorf("remove %s: its worktree is still there", task)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if t.Failed() {
			return
		}
	}
}
