package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// writeLog writes n user entries to session, the meta with them (as a session does each turn).
func writeLog(t *testing.T, s *Store, session string, n int) {
	t.Helper()
	m := &SessionMeta{ID: session, Status: "running"}
	for i := 1; i <= n; i++ {
		if err := s.AppendWithMeta(m, &Entry{Kind: KindUser, Text: fmt.Sprint("entry ", i)}); err != nil {
			t.Fatal(err)
		}
	}
}

// lose deletes log entries first..last behind the store's back, as a damaged table block does
// (Badger ends the iteration there without an error).
func lose(t *testing.T, s *Store, session string, first, last uint64) {
	t.Helper()
	err := s.db.Update(func(txn *badger.Txn) error {
		for seq := first; seq <= last; seq++ {
			if err := txn.Delete(logKey(session, seq)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func seqsAndMarkers(log []*Entry) string {
	var parts []string
	for _, e := range log {
		if e.Event == DamagedEntryEvent {
			parts = append(parts, fmt.Sprintf("lost≤%d", e.Seq))
			continue
		}
		parts = append(parts, fmt.Sprint(e.Seq))
	}
	return strings.Join(parts, " ")
}

// Entries the store no longer has are reported in their place: a gap between two entries read,
// and a tail cut off before the last seq the meta recorded. Nothing comes back silently shorter.
func TestLostEntriesAreReportedNotSilentlyCut(t *testing.T) {
	s, _ := openTemp(t)
	writeLog(t, s, "gap", 8)
	lose(t, s, "gap", 3, 5)
	log, err := s.Log("gap")
	if err != nil {
		t.Fatal(err)
	}
	if got := seqsAndMarkers(log); got != "1 2 lost≤5 6 7 8" {
		t.Fatalf("log with a gap: %s", got)
	}
	if !strings.Contains(log[2].Text, "entries 3–5 of this session are missing") {
		t.Errorf("marker text: %q", log[2].Text)
	}

	writeLog(t, s, "tail", 10)
	lose(t, s, "tail", 8, 10)
	log, err = s.Log("tail")
	if err != nil {
		t.Fatal(err)
	}
	if got := seqsAndMarkers(log); got != "1 2 3 4 5 6 7 lost≤10" {
		t.Fatalf("log with a lost tail: %s", got)
	}

	// Paging goes on after a gap and ends at the recorded last entry.
	var paged []string
	after := uint64(0)
	for range 20 {
		page, more, err := s.LogPage("gap", after, 1)
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, seqsAndMarkers(page))
		after = page[len(page)-1].Seq
		if !more {
			break
		}
	}
	if got := strings.Join(paged, " "); got != "1 2 lost≤5 6 7 8" {
		t.Fatalf("paged: %s", got)
	}
	if log, _ := s.LogFrom("tail", 10); len(log) != 0 {
		t.Errorf("after the last recorded seq: %s", seqsAndMarkers(log))
	}
}

// A run that appends to a log whose tail was lost does not write the lost seqs again: the
// meta's record of the last seq wins over the last key found.
func TestAppendAfterALostTailKeepsSeqsUnique(t *testing.T) {
	s, dir := openTemp(t)
	writeLog(t, s, "tail", 6)
	lose(t, s, "tail", 5, 6)
	s = reopen(t, s, dir)
	e := &Entry{Kind: KindUser, Text: "after"}
	if err := s.Append("tail", e); err != nil {
		t.Fatal(err)
	}
	if e.Seq != 7 {
		t.Fatalf("appended at seq %d, want 7 (5 and 6 were used)", e.Seq)
	}
	log, err := s.Log("tail")
	if err != nil {
		t.Fatal(err)
	}
	if got := seqsAndMarkers(log); got != "1 2 3 4 lost≤6 7" {
		t.Fatalf("log: %s", got)
	}
}

// A meta written on its own records the log's last seq too, and never lowers it.
func TestPutMetaRecordsTheLastSeq(t *testing.T) {
	s, _ := openTemp(t)
	writeLog(t, s, "m", 3)
	m := &SessionMeta{ID: "m", Status: "done"}
	if err := s.PutMeta(m); err != nil {
		t.Fatal(err)
	}
	got, err := s.Meta("m")
	if err != nil || got.LogSeq != 3 {
		t.Fatalf("meta %+v, %v: want log_seq 3", got, err)
	}
}
