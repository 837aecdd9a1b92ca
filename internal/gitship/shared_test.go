package gitship

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// Read-only tasks of one start share one worktree, made once however many ask at the same
// moment; another start gets its own; idle shared worktrees beyond maxIdleShared are removed,
// the one idle longest first.
func TestSharedCheckouts(t *testing.T) {
	ctx := ctxT(t)
	parent := newRepo(t)
	base := git(t, parent, "rev-parse", "HEAD")
	c, err := NewCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	start := func(patch string) *messages.TaskRepo {
		src := &messages.TaskRepo{URL: parent, Base: base}
		if patch != "" {
			src.Patch = &messages.Blob{Inline: []byte(patch)}
		}
		return src
	}
	const slots = 8
	got := make([]*Checkout, slots)
	var wg sync.WaitGroup
	for i := range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			co, err := c.CheckoutShared(ctx, "proj", start(""), nil)
			if err != nil {
				t.Errorf("slot %d: %v", i, err)
				return
			}
			got[i] = co
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i, co := range got {
		if co != got[0] {
			t.Fatalf("slot %d got worktree %s, slot 0 %s: one start, one worktree", i, co.Path, got[0].Path)
		}
	}
	if !exists(got[0].Path, "a.txt") {
		t.Fatal("the shared worktree has no files")
	}
	// Three more starts (other uncommitted changes), each used once and let go.
	var others []*Checkout
	for i := range 3 {
		patch := fmt.Sprintf("diff --git a/n%d.txt b/n%d.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n%d.txt\n@@ -0,0 +1 @@\n+n\n", i, i, i)
		co, err := c.CheckoutShared(ctx, "proj", start(patch), nil)
		if err != nil {
			t.Fatal(err)
		}
		if co == got[0] || !exists(co.Path, fmt.Sprintf("n%d.txt", i)) {
			t.Fatalf("start %d: not a worktree of its own with its changes", i)
		}
		others = append(others, co)
	}
	for _, co := range others { // idle in this order: others[0] first
		if err := c.ReleaseShared(ctx, co); err != nil {
			t.Fatal(err)
		}
	}
	// Three idle: the one idle longest is gone, the other two stay for later tasks.
	if _, err := os.Stat(others[0].Path); !os.IsNotExist(err) {
		t.Errorf("the oldest idle worktree is still there (%v)", err)
	}
	for _, co := range others[1:] {
		if !exists(co.Path, "a.txt") {
			t.Errorf("idle worktree %s was removed, want it kept", co.Path)
		}
	}
	// The first start's worktree is still used by every slot: its release keeps it until the last.
	for i := range slots {
		if err := c.ReleaseShared(ctx, got[i]); err != nil {
			t.Fatal(err)
		}
		if i < slots-1 && !exists(got[0].Path, "a.txt") {
			t.Fatalf("the shared worktree went while %d tasks still use it", slots-1-i)
		}
	}
	if again, err := c.CheckoutShared(ctx, "proj", start(""), nil); err != nil || again.Path == "" {
		t.Fatalf("a later task of the first start: %v", err)
	}
	if err := c.ReleaseShared(ctx, &Checkout{Task: "nobody"}); err == nil {
		t.Error("releasing a worktree the cache never shared was accepted")
	}
}
