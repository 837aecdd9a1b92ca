package store

import (
	"fmt"
	"strings"
	"testing"
)

// oneShotRun is what a `troupe run` does to the store: open, write a short session, close.
func oneShotRun(t *testing.T, dir, session string) {
	t.Helper()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open before %s: %v", session, err)
	}
	meta := &SessionMeta{ID: session, Status: "running", Task: "task " + session}
	if err := s.PutMeta(meta); err != nil {
		t.Fatal(err)
	}
	for turn := range 3 {
		call := &Entry{Kind: KindAssistant, Calls: []Call{{ID: fmt.Sprint(turn), Name: "bash"}}}
		result := &Entry{Kind: KindToolResult, CallID: fmt.Sprint(turn), ToolName: "bash", Text: session + strings.Repeat(" out", 500)}
		if err := s.AppendWithMeta(meta, call, result); err != nil {
			t.Fatal(err)
		}
	}
	meta.Status = "done"
	if err := s.PutMeta(meta); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close after %s: %v", session, err)
	}
}

// TestOneShotRunsKeepTheTableCountBounded: each one-shot run flushes a table at Close; without
// the close stamp and the level-0 compaction they piled up, one per run, forever.
func TestOneShotRunsKeepTheTableCountBounded(t *testing.T) {
	dir := t.TempDir()
	const runs = 40
	most := 0
	for i := range runs {
		oneShotRun(t, dir, fmt.Sprintf("20260101-0000%02d-aaaaaa", i))
		most = max(most, len(storeFilesWithSuffix(t, dir, ".sst")))
	}
	// A handful: level0CompactAt level-0 tables, the newest lower table and the run's own.
	if most > 8 {
		t.Fatalf("%d table files after %d one-shot runs; want at most 8", most, runs)
	}

	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sessions, err := s.Sessions()
	if err != nil || len(sessions) != runs {
		t.Fatalf("%d sessions after compactions, want %d: %v", len(sessions), runs, err)
	}
	for _, m := range sessions {
		log, err := s.Log(m.ID)
		if err != nil || len(log) != 6 || m.Status != "done" {
			t.Fatalf("session %s: %d entries, status %q, %v; want 6, done", m.ID, len(log), m.Status, err)
		}
		if !strings.HasPrefix(log[5].Text, m.ID+" out") {
			t.Fatalf("session %s: last result %.40q belongs elsewhere", m.ID, log[5].Text)
		}
	}
}

// TestReadOnlyOpenAddsNoTable: a run that only reads (troupe sessions, troupe log) must not stamp
// the store, or every read would flush a table of its own.
func TestReadOnlyOpenAddsNoTable(t *testing.T) {
	dir := t.TempDir()
	oneShotRun(t, dir, "s1")
	before := storeFilesWithSuffix(t, dir, ".sst")
	for range 3 {
		s, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Log("s1"); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if after := storeFilesWithSuffix(t, dir, ".sst"); len(after) != len(before) {
		t.Fatalf("read-only opens left %d tables, were %d", len(after), len(before))
	}
}

func TestCloseTwiceIsHarmless(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.Append("s1", &Entry{Kind: KindUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("first Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}
