package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// A queued append takes its seq at once and commits before anything the session writes after
// it: a read after the next waited-for write sees both, gap-free and in order.
func TestAppendSoonCommitsBeforeTheNextWrite(t *testing.T) {
	s, _ := openTemp(t)
	for i := range 50 {
		queued := &Entry{Kind: KindSystem, Event: "tool.decision"}
		if err := s.AppendSoon("a", queued); err != nil {
			t.Fatal(err)
		}
		if queued.Seq != uint64(2*i+1) || queued.Time.IsZero() {
			t.Fatalf("queued entry: seq %d, time %v", queued.Seq, queued.Time)
		}
		m := &SessionMeta{ID: "a", Turns: i}
		if err := s.PutMetaSoon(m, RepairStats{Model: "m", Calls: 1}); err != nil {
			t.Fatal(err)
		}
		if m.LogSeq != queued.Seq || m.Updated.IsZero() {
			t.Fatalf("queued meta: log seq %d, updated %v", m.LogSeq, m.Updated)
		}
		if err := s.Append("a", &Entry{Kind: KindToolResult, Text: "ok"}); err != nil {
			t.Fatal(err)
		}
		log, err := s.Log("a")
		if err != nil || len(log) != 2*i+2 || log[2*i].Event != "tool.decision" {
			t.Fatalf("after the result: %d entries, %v", len(log), err)
		}
		if got, err := s.Meta("a"); err != nil || got.Turns != i {
			t.Fatalf("meta after the result: %+v, %v", got, err)
		}
	}
	assertGapFree(t, s, "a", 100)
	if r, err := s.Repairs(); err != nil || len(r) != 1 || r[0].Calls != 50 {
		t.Fatalf("repair counters: %+v, %v", r, err)
	}
}

// Close waits for queued writes: a reopened store has them.
func TestQueuedWritesSurviveClose(t *testing.T) {
	s, dir := openTemp(t)
	for range 20 {
		if err := s.AppendSoon("a", &Entry{Kind: KindSystem, Event: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutMetaSoon(&SessionMeta{ID: "a", Turns: 7}, RepairStats{Model: "m", Calls: 2, ByKind: map[string]int{"k": 1}}); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	assertGapFree(t, s, "a", 20)
	if m, err := s.Meta("a"); err != nil || m.Turns != 7 || m.LogSeq != 20 {
		t.Fatalf("meta after reopen: %+v, %v", m, err)
	}
	if r, err := s.Repairs(); err != nil || len(r) != 1 || r[0].Calls != 2 || r[0].ByKind["k"] != 1 {
		t.Fatalf("repair counters after reopen: %+v, %v", r, err)
	}
}

// With a commit hook the queued writes are waited for, so the hook hears every commit in order.
func TestQueuedWritesWithAHookAreHeardInOrder(t *testing.T) {
	s, _ := openTemp(t)
	var seqs []uint64
	metas := 0
	s.SetCommitHook(func(session string, entries []*Entry, meta *SessionMeta) {
		for _, e := range entries {
			seqs = append(seqs, e.Seq)
		}
		if meta != nil {
			metas++
		}
	})
	for range 3 {
		if err := s.AppendSoon("a", &Entry{Kind: KindSystem, Event: "x"}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutMetaSoon(&SessionMeta{ID: "a"}, RepairStats{}); err != nil {
			t.Fatal(err)
		}
		if err := s.Append("a", &Entry{Kind: KindToolResult}); err != nil {
			t.Fatal(err)
		}
	}
	if len(seqs) != 6 || metas != 3 {
		t.Fatalf("heard seqs %v and %d metas", seqs, metas)
	}
	for i, q := range seqs {
		if q != uint64(i+1) {
			t.Fatalf("heard seqs %v", seqs)
		}
	}
}

// A queued entry goes in the session's next write's transaction (one commit for both), and
// commits alone when no write comes.
func TestAQueuedEntryRidesWithTheNextWrite(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.Append("a", &Entry{Kind: KindUser, Text: "go"}); err != nil {
		t.Fatal(err)
	}
	before := s.writes.Load()
	if err := s.AppendSoon("a", &Entry{Kind: KindSystem, Event: "tool.decision"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("a", &Entry{Kind: KindToolResult, Text: "ok"}); err != nil {
		t.Fatal(err)
	}
	if n := s.writes.Load() - before; n != 1 {
		t.Fatalf("the queued entry and the result took %d commits, want 1", n)
	}
	assertGapFree(t, s, "a", 3)
	if err := s.AppendSoon("a", &Entry{Kind: KindSystem, Event: "tool.decision"}); err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 10*time.Second, func() bool {
		log, err := s.Log("a")
		return err == nil && len(log) == 4 && log[3].Event == "tool.decision"
	}, "the queued entry committed alone")
	assertGapFree(t, s, "a", 4)
}

// A session's other records (a subagent's, the goal, a file record) written after a queued
// entry commit with or after it, as its log and meta writes do: what a crash leaves never holds
// a record written after the audit entry without the entry.
func TestAQueuedEntryCommitsWithTheSessionsNextValue(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.AppendSoon("a", &Entry{Kind: KindSystem, Event: "tool.decision"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutAgentRecord("a", "child", map[string]string{"task": "child"}); err != nil {
		t.Fatal(err)
	}
	log, err := s.Log("a")
	if err != nil || len(log) != 1 || log[0].Event != "tool.decision" {
		t.Fatalf("after a record written next: %d entries, %v; want the queued entry stored", len(log), err)
	}
}

func TestQueuedWritesRefuseBadSessionIDs(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.AppendSoon("../x", &Entry{Kind: KindUser}); err == nil {
		t.Fatal("a bad id was queued")
	}
	if err := s.PutMetaSoon(&SessionMeta{ID: ""}, RepairStats{}); err == nil {
		t.Fatal("a meta without an id was queued")
	}
}

// logKey writes seq as 16 hex digits, as %016x does.
func TestLogKeyIsSixteenHexDigits(t *testing.T) {
	for _, seq := range []uint64{0, 1, 15, 16, 255, 1 << 32, 1<<64 - 1, 0xdeadbeef} {
		want := fmt.Sprintf("%s%016x", logPrefix("s"), seq)
		if got := string(logKey("s", seq)); got != want {
			t.Fatalf("logKey(%d) = %q, want %q", seq, got, want)
		}
		if back, err := seqOfLogKey(logKey("s", seq)); err != nil || back != seq {
			t.Fatalf("seqOfLogKey(logKey(%d)) = %d, %v", seq, back, err)
		}
	}
}

// inflight's wait returns once every commit is done, with more added while it waits.
func TestInflightWaitsForEveryCommit(t *testing.T) {
	var f inflight
	f.add()
	waited := make(chan struct{})
	go func() { f.wait(); close(waited) }()
	f.add() // while the wait is under way: no panic, and the wait covers it
	f.done()
	select {
	case <-waited:
		t.Fatal("wait returned with a commit left")
	default:
	}
	f.done()
	<-waited
	f.wait() // none left: at once
}
