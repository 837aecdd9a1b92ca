package actors

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/store"
)

// StartNode reports its start-up phases (the node answers, "bus", while its store may still be
// opening: "store" comes once it is open), and a node started with CloseForExit left
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
	if !slices.Contains(got, "bus") {
		t.Errorf("phases when StartNode returned = %v, want bus among them", got)
	}
	if err := node.Store().Ready(); err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 5*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		got = slices.Clone(phases)
		return len(got) == 2
	}, "the store phase")
	slices.Sort(got)
	if !slices.Equal(got, []string{"bus", "store"}) {
		t.Errorf("phases = %v, want bus and store once each", got)
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
