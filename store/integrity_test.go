package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// closedStoreWithSession writes a session with a few entries (one past the value threshold, so
// the value log is used too), closes the store so its data lands in table files, and returns
// the directory.
func closedStoreWithSession(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	meta := &SessionMeta{ID: "s1", Status: "done", Task: "keep me"}
	entries := []*Entry{
		{Kind: KindUser, Text: "hello"},
		{Kind: KindAssistant, Text: "calling", Calls: []Call{{ID: "c1", Name: "bash"}}},
		{Kind: KindToolResult, CallID: "c1", ToolName: "bash", Text: strings.Repeat("big output ", 4000)},
		{Kind: KindAssistant, Text: "done"},
	}
	if err := s.AppendWithMeta(meta, entries...); err != nil {
		t.Fatalf("Append: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return dir
}

func storeFilesWithSuffix(t *testing.T, dir, suffix string) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(dir, "*"+suffix))
	if err != nil {
		t.Fatal(err)
	}
	return matches
}

// openMustBeDamaged asserts Open refuses dir with a DamageError that points at the repair.
func openMustBeDamaged(t *testing.T, dir string) {
	t.Helper()
	s, err := Open(dir, nil)
	if err == nil {
		sessions, _ := s.Sessions()
		s.Close()
		t.Fatalf("Open of a damaged store succeeded (%d sessions visible)", len(sessions))
	}
	var damaged *DamageError
	if !errors.As(err, &damaged) || !errors.Is(err, ErrDamaged) {
		t.Fatalf("Open error = %v (%T), want a *DamageError", err, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "is damaged") || !strings.Contains(msg, "troupe doctor --repair") || strings.Contains(msg, "\n") {
		t.Fatalf("damage message %q is not one line naming the repair", msg)
	}
}

func TestOpenRefusesStoreWithoutManifest(t *testing.T) {
	dir := closedStoreWithSession(t)
	tables := storeFilesWithSuffix(t, dir, ".sst")
	if len(tables) == 0 {
		t.Fatal("closing the store wrote no table files")
	}
	if err := os.Remove(filepath.Join(dir, "MANIFEST")); err != nil {
		t.Fatal(err)
	}
	openMustBeDamaged(t, dir)
	for _, tbl := range tables {
		if _, err := os.Stat(tbl); err != nil {
			t.Fatalf("refusing to open deleted table %s: %v", tbl, err)
		}
	}
	openMustBeDamaged(t, dir) // and stays refused: nothing was written over it
}

func TestOpenRefusesTruncatedManifest(t *testing.T) {
	for _, keep := range []func(size int64) int64{
		func(int64) int64 { return 0 },
		func(int64) int64 { return 8 }, // the header only: every table record lost
		func(size int64) int64 { return size - 3 },
	} {
		dir := closedStoreWithSession(t)
		manifest := filepath.Join(dir, "MANIFEST")
		info, err := os.Stat(manifest)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(manifest, keep(info.Size())); err != nil {
			t.Fatal(err)
		}
		openMustBeDamaged(t, dir)
	}
}

func TestOpenRefusesFlippedTableByte(t *testing.T) {
	dir := closedStoreWithSession(t)
	tables := storeFilesWithSuffix(t, dir, ".sst")
	if len(tables) == 0 {
		t.Fatal("no table files")
	}
	data, err := os.ReadFile(tables[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/3] ^= 0x10
	if err := os.WriteFile(tables[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	openMustBeDamaged(t, dir)
}

func TestOpenRefusesTruncatedTableWithoutPanic(t *testing.T) {
	dir := closedStoreWithSession(t)
	for _, tbl := range storeFilesWithSuffix(t, dir, ".sst") {
		info, err := os.Stat(tbl)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(tbl, info.Size()/2); err != nil {
			t.Fatal(err)
		}
	}
	openMustBeDamaged(t, dir)
}

func TestOpenRefusesFlippedValueLogByte(t *testing.T) {
	dir := closedStoreWithSession(t)
	var flipped bool
	for _, vlog := range storeFilesWithSuffix(t, dir, ".vlog") {
		data, err := os.ReadFile(vlog)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(data), "big output big output")
		if i < 0 {
			continue
		}
		data[i+100] ^= 0x01
		if err := os.WriteFile(vlog, data, 0o600); err != nil {
			t.Fatal(err)
		}
		flipped = true
	}
	if !flipped {
		t.Fatal("the large tool output is not in the value log")
	}
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	log, err := s.Log("s1")
	if err != nil {
		t.Fatalf("a damaged value must lose its entry, not the session: %v", err)
	}
	if len(log) != 4 || log[2].Event != DamagedEntryEvent || log[2].Seq != 3 {
		t.Fatalf("log = %d entries, entry 3 = %+v; want 4 with entry 3 reported damaged", len(log), log[2])
	}
	if log[0].Text != "hello" || log[3].Text != "done" {
		t.Fatalf("undamaged entries changed: %q, %q", log[0].Text, log[3].Text)
	}
}

func TestDamagedEntryLosesOnlyThatEntry(t *testing.T) {
	s, _ := openTemp(t)
	call := &Entry{Kind: KindAssistant, Calls: []Call{{ID: "c1", Name: "read_file"}}}
	result := &Entry{Kind: KindToolResult, CallID: "c1", ToolName: "read_file", Text: "the file says 42"}
	after := &Entry{Kind: KindUser, Text: "thanks"}
	if err := s.Append("s1", call, result, after); err != nil {
		t.Fatal(err)
	}
	// Flip one bit of the result's stored JSON (its text) behind the store's back.
	err := s.db.Update(func(txn *badger.Txn) error {
		item, err := txn.Get(logKey("s1", result.Seq))
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		if err != nil {
			return err
		}
		v[strings.Index(string(v), "42")] ^= 0x02 // '4' → '6'
		return txn.Set(logKey("s1", result.Seq), v)
	})
	if err != nil {
		t.Fatal(err)
	}
	log, err := s.Log("s1")
	if err != nil {
		t.Fatalf("Log: %v", err)
	}
	if len(log) != 3 || log[1].Event != DamagedEntryEvent || strings.Contains(log[1].Text, "62") {
		t.Fatalf("entry 2 = %+v; want it reported damaged, never the changed text", log[1])
	}
	view, synthetic := Heal(log)
	if len(synthetic) != 1 || synthetic[0].CallID != "c1" || synthetic[0].Text != InterruptedText {
		t.Fatalf("healing did not answer the call whose result was lost: %+v", synthetic)
	}
	if view[len(view)-1].Text != "thanks" {
		t.Fatalf("entries after the damaged one are lost: %+v", view)
	}
}

func TestLegacyPlainJSONEntriesStillLoad(t *testing.T) {
	s, _ := openTemp(t)
	err := s.db.Update(func(txn *badger.Txn) error {
		return txn.Set(logKey("old", 1), []byte(`{"seq":1,"kind":"user","text":"from an older troupe"}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	log, err := s.Log("old")
	if err != nil || len(log) != 1 || log[0].Text != "from an older troupe" {
		t.Fatalf("Log = %+v, %v", log, err)
	}
}

// TestOpenAcceptsTableLeftUnrecordedByACrash: a kill -9 between writing a table and recording
// it leaves a table the MANIFEST does not list, with any id when compactions run concurrently.
// Its data is elsewhere too, so that is not damage.
func TestOpenAcceptsTableLeftUnrecordedByACrash(t *testing.T) {
	dir, newTable := twoTableStore(t)
	data, err := os.ReadFile(newTable)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "000000.sst"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open after a crash-left table: %v", err)
	}
	defer s.Close()
	if log, err := s.Log("s2"); err != nil || len(log) != 1 || log[0].Text != "second" {
		t.Fatalf("log = %v, %v", log, err)
	}
}

// TestOpenAcceptsEmptyTableLeftByACrash: a kill -9 right after a table file was created leaves
// it empty and unrecorded; Badger removes it, and it is not damage.
func TestOpenAcceptsEmptyTableLeftByACrash(t *testing.T) {
	dir, _ := twoTableStore(t)
	if err := os.WriteFile(filepath.Join(dir, "000099.sst"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open after a crash-left empty table: %v", err)
	}
	s.Close()
}
