package actors

import (
	"sync"
	"testing"
	"time"
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
