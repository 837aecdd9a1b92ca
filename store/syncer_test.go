package store

import (
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// TestSyncSoonCoalescesWhileASyncRuns: requests made while a sync runs are served by one more
// sync, not one each, and the caller never waits for the disk.
func TestSyncSoonCoalescesWhileASyncRuns(t *testing.T) {
	release := make(chan struct{})
	var started, finished atomic.Int32
	y := newSyncer(func() error {
		started.Add(1)
		<-release
		finished.Add(1)
		return nil
	}, slog.New(slog.DiscardHandler), time.Millisecond)
	y.request()
	testwait.Until(t, 5*time.Second, func() bool { return started.Load() == 1 }, "the first sync starts")
	for range 50 {
		y.request() // returns at once though the sync is blocked
	}
	close(release)
	testwait.Until(t, 5*time.Second, func() bool { return finished.Load() == 2 }, "the pending sync runs")
	y.halt()
	if n := started.Load(); n != 2 {
		t.Fatalf("syncs run: %d, want 2 (one running, one covering the 50 requests made meanwhile)", n)
	}
	y.request() // after halt: nothing, and no panic
	y.halt()
	if n := started.Load(); n != 2 {
		t.Fatalf("a request after halt ran a sync (%d syncs)", n)
	}
}

// TestSyncsAreSpaced: a request soon after a sync waits for the spacing, and halting meanwhile
// ends the wait without a sync (Close syncs itself).
func TestSyncsAreSpaced(t *testing.T) {
	var started atomic.Int32
	y := newSyncer(func() error { started.Add(1); return nil }, slog.New(slog.DiscardHandler), time.Hour)
	y.request() // after a quiet spell: at once
	testwait.Until(t, 5*time.Second, func() bool { return started.Load() == 1 }, "the first sync runs at once")
	y.request()
	y.halt() // returns though a request waits for its turn
	if n := started.Load(); n != 1 {
		t.Fatalf("syncs run: %d, want 1 (the second waits an hour for its turn)", n)
	}
}

// TestSyncSoonThenCloseKeepsTheWrites: a store synced in the background and closed right after
// reopens with everything written.
func TestSyncSoonThenCloseKeepsTheWrites(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if err := s.Append("s1", &Entry{Kind: EntryKind("user"), Text: "line"}); err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
		s.SyncSoon()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s.SyncSoon() // after Close: ignored, no panic
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	log, err := s2.Log("s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 20 {
		t.Fatalf("reopened log has %d entries, want 20", len(log))
	}
}
