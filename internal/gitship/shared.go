package gitship

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/troupe-dev/troupe/messages"
)

// Shared checkouts. A task that may not change the workspace (SpawnTask.Writes false: a child
// in plan mode, such as an explorer) only reads the code, as a read-only child on the parent's
// machine reads the parent's own checkout. On a worker, the read-only tasks of one start (base
// commit and uncommitted changes) share one worktree instead of each making, filling and
// removing its own: that was the largest fixed cost of a task on a worker, and worktree adds
// and removes are serialized per cache (bench/workers: 10,000 explorers across two workers).
// A shared worktree stays while tasks use it and a few idle ones are kept for the next tasks;
// it is never checkpointed (nothing is written) and never returned as a branch.

// maxIdleShared is how many unused shared worktrees a cache keeps for later tasks.
const maxIdleShared = 2

// sharedTree is one shared worktree and the tasks using it.
type sharedTree struct {
	co    *Checkout
	err   error
	ready chan struct{} // closed once co (or err) is set
	users int
	seq   uint64 // when it was last let go: the oldest idle tree goes first
}

// sharing is a Cache's book of shared worktrees, by start.
type sharing struct {
	mu    sync.Mutex
	trees map[string]*sharedTree
	seq   uint64
}

// CheckoutShared returns the worktree every read-only task of src's start shares, making it on
// first use. Give it back with ReleaseShared.
func (c *Cache) CheckoutShared(ctx context.Context, project string, src *messages.TaskRepo, objs *Objects) (*Checkout, error) {
	key := sharedKey(project, src)
	s := &c.shared
	s.mu.Lock()
	if s.trees == nil {
		s.trees = map[string]*sharedTree{}
	}
	t := s.trees[key]
	if t == nil {
		t = &sharedTree{ready: make(chan struct{})}
		s.trees[key] = t
		s.seq++
		// Each tree its own name, so making a tree anew never meets the removal of an evicted
		// one of the same start.
		name := fmt.Sprintf("ro-%s-%d", key[:12], s.seq)
		go func() { // made once for all its waiters, under a context none of them can cut short
			co, err := c.Checkout(context.WithoutCancel(ctx), project, name, src, objs)
			s.mu.Lock()
			t.co, t.err = co, err
			if err != nil {
				delete(s.trees, key) // the next task tries again
			}
			s.mu.Unlock()
			close(t.ready)
		}()
	}
	t.users++
	s.mu.Unlock()
	select {
	case <-t.ready:
	case <-ctx.Done():
		_ = c.let(context.WithoutCancel(ctx), t)
		return nil, ctx.Err()
	}
	if t.err != nil {
		return nil, t.err
	}
	return t.co, nil
}

// ReleaseShared gives back a worktree CheckoutShared returned. An unused one is kept for later
// tasks unless more than maxIdleShared are idle: then the one idle longest is removed.
func (c *Cache) ReleaseShared(ctx context.Context, co *Checkout) error {
	c.shared.mu.Lock()
	var held *sharedTree
	for _, t := range c.shared.trees {
		if t.co == co {
			held = t
			break
		}
	}
	c.shared.mu.Unlock()
	if held == nil {
		return fmt.Errorf("gitship: %s is not a shared worktree of this cache", co.Task)
	}
	return c.let(ctx, held)
}

// let takes one user off t, and removes the idle tree used longest ago if too many are idle.
func (c *Cache) let(ctx context.Context, t *sharedTree) error {
	s := &c.shared
	s.mu.Lock()
	t.users--
	s.seq++
	t.seq = s.seq
	var victim *Checkout
	if t.users == 0 {
		victim = s.evict()
	}
	s.mu.Unlock()
	if victim == nil {
		return nil
	}
	return c.Remove(ctx, victim)
}

// evict drops the idle tree used longest ago when more than maxIdleShared are idle, and
// returns its checkout to remove; s.mu is held. A tree still being made is not idle.
func (s *sharing) evict() *Checkout {
	idle, oldest := 0, ""
	for key, t := range s.trees {
		if t.users > 0 || t.co == nil {
			continue
		}
		idle++
		if oldest == "" || t.seq < s.trees[oldest].seq {
			oldest = key
		}
	}
	if idle <= maxIdleShared {
		return nil
	}
	co := s.trees[oldest].co
	delete(s.trees, oldest)
	return co
}

// sharedKey names a start: the project, the base and the uncommitted changes.
func sharedKey(project string, src *messages.TaskRepo) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", project, src.Base)
	switch {
	case src.Patch.Empty():
	case src.Patch.Ref != nil && src.Patch.Ref.Digest != "":
		fmt.Fprintf(h, "digest %s", src.Patch.Ref.Digest)
	case src.Patch.Ref != nil:
		fmt.Fprintf(h, "ref %s", src.Patch.Ref.Name)
	default:
		h.Write(src.Patch.Inline)
	}
	return hex.EncodeToString(h.Sum(nil))
}
