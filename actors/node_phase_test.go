package actors

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/troupe-dev/troupe/store"
)

// StartNode reports its start-up phases in order, and a node started with CloseForExit left
// behind has its store synced but still held: only the process's exit lets it go.
func TestStartNodeReportsPhasesAndCloseForExitKeepsTheStoreHeld(t *testing.T) {
	root := t.TempDir()
	var mu sync.Mutex
	var phases []string
	node, err := StartNode(NodeOptions{Root: root, OnPhase: func(p string) {
		mu.Lock()
		defer mu.Unlock()
		phases = append(phases, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	got := slices.Clone(phases)
	mu.Unlock()
	if !slices.Equal(got, []string{"store", "bus"}) {
		t.Errorf("phases = %v, want [store bus]", got)
	}
	if err := node.Store().PutValue("s1", "k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := node.CloseForExit(); err != nil {
		t.Fatalf("CloseForExit: %v", err)
	}
	if _, err := FindNode(root); err == nil {
		t.Error("node.json still announces the node after CloseForExit")
	}
	// The store stays open (its lock held) until the process exits; a Node started here now
	// must be told to attach instead, not open the store a second time.
	if _, err := StartNode(NodeOptions{Root: root}); err == nil || !isLocked(err) {
		t.Errorf("second StartNode after CloseForExit: %v, want the store's lock error", err)
	}
	t.Cleanup(func() { _ = node.Store().Close() })
}

func isLocked(err error) bool { return errors.Is(err, store.ErrLocked) }
