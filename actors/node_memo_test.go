package actors

import (
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

func TestDiskMemo(t *testing.T) {
	var mu sync.Mutex
	reads := map[string]int{}
	clock := time.Unix(0, 0)
	m := newDiskMemo(time.Second, func(key string) int {
		mu.Lock()
		defer mu.Unlock()
		reads[key]++
		return reads[key]
	})
	m.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	readsOf := func(key string) int { mu.Lock(); defer mu.Unlock(); return reads[key] }

	if v := m.get("a"); v != 1 || readsOf("a") != 1 {
		t.Fatalf("first get: value %d after %d reads, want 1 after 1", v, readsOf("a"))
	}
	if v := m.get("a"); v != 1 || readsOf("a") != 1 {
		t.Fatalf("fresh get: value %d after %d reads, want the held 1 without a read", v, readsOf("a"))
	}
	mu.Lock()
	clock = clock.Add(2 * time.Second)
	mu.Unlock()
	if v := m.get("a"); v != 1 {
		t.Fatalf("stale get: value %d, want the held 1 (the re-read runs in the background)", v)
	}
	m.close() // waits for the re-read
	if readsOf("a") != 2 {
		t.Fatalf("stale get made %d reads, want 2", readsOf("a"))
	}
	if v := m.get("a"); v != 2 {
		t.Fatalf("after the re-read: value %d, want 2", v)
	}
	mu.Lock()
	clock = clock.Add(2 * time.Second)
	mu.Unlock()
	m.get("a")
	if readsOf("a") != 2 {
		t.Fatalf("a closed memo re-read: %d reads, want 2", readsOf("a"))
	}
	if v := m.get("b"); v != 1 {
		t.Fatalf("another key: value %d, want its own first read", v)
	}
}

// A caller asking for a key while the warm still reads it waits for that read: one read of a
// slow directory, not two at once (a session starting while the Node's start warms its root).
func TestDiskMemoWaitsForTheWarm(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	reads := 0
	m := newDiskMemo(time.Hour, func(key string) string {
		mu.Lock()
		reads++
		first := reads == 1
		mu.Unlock()
		if first {
			<-release // the warm's read, held until the caller waits for it
		}
		return key + "-read"
	})
	waiting := make(chan string, 1)
	m.waits = func(key string) { waiting <- key }
	m.warm("root")
	got := make(chan string, 1)
	go func() { got <- m.get("root") }()
	select {
	case key := <-waiting:
		if key != "root" {
			t.Fatalf("waited for %q", key)
		}
	case v := <-got:
		t.Fatalf("get returned %q while the warm was still reading: it read the key itself", v)
	case <-time.After(testwait.Scale(5 * time.Second)):
		t.Fatal("get neither waited for the warm nor returned")
	}
	close(release)
	if v := <-got; v != "root-read" {
		t.Fatalf("get = %q, want the warm's value", v)
	}
	m.warm("root") // held already: no read
	m.close()
	mu.Lock()
	defer mu.Unlock()
	if reads != 1 {
		t.Fatalf("%d reads, want 1", reads)
	}
}

// A started node has its root's credential list and roles read, or being read: the first
// session's executor takes them from memory (or waits for that read), never reads them again.
func TestStartNodeWarmsTheRootsMemos(t *testing.T) {
	node, err := StartNode(NodeOptions{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	for name, holds := range map[string]bool{
		"hidden": memoHolds(node.hidden, node.Root),
		"roles":  memoHolds(node.roles, node.Root),
	} {
		if !holds {
			t.Errorf("the %s memo holds nothing for the root after StartNode: the first session reads it itself", name)
		}
	}
}

// memoHolds says whether m has key's value, or its first read under way.
func memoHolds[V any](m *diskMemo[V], key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, e := m.entries[key]
	_, f := m.first[key]
	return e || f
}
