package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// twoTableStore writes session "old" and closes (one table), then session "new" and closes
// (a second table), and returns the directory and the table holding "new".
func twoTableStore(t *testing.T) (dir, newTable string) {
	t.Helper()
	dir = closedStoreWithSession(t)
	before := storeFilesWithSuffix(t, dir, ".sst")
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendWithMeta(&SessionMeta{ID: "s2", Status: "done"}, &Entry{Kind: KindUser, Text: "second"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tbl := range storeFilesWithSuffix(t, dir, ".sst") {
		if !contains(before, tbl) {
			return dir, tbl
		}
	}
	t.Fatal("the second close wrote no new table")
	return "", ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func repairAndOpen(t *testing.T, dir string) (*RepairReport, *Store) {
	t.Helper()
	rep, err := Repair(dir, time.Now(), nil)
	if err != nil {
		t.Fatalf("Repair: %v", err)
	}
	if _, err := os.Stat(rep.Backup); err != nil {
		t.Fatalf("no backup at %s: %v", rep.Backup, err)
	}
	if _, err := os.Stat(dir + ".salvage"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the salvage scratch directory was left behind: %v", err)
	}
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open after repair: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return rep, s
}

func TestRepairRebuildsStoreWithoutManifest(t *testing.T) {
	dir, _ := twoTableStore(t)
	if err := os.Remove(filepath.Join(dir, "MANIFEST")); err != nil {
		t.Fatal(err)
	}
	rep, s := repairAndOpen(t, dir)
	if rep.Lost != 0 || len(rep.BadTables) != 0 || rep.Kept < 7 {
		t.Fatalf("report = %+v; want every key kept", rep)
	}
	for id, want := range map[string]int{"s1": 4, "s2": 1} {
		log, err := s.Log(id)
		if err != nil || len(log) != want {
			t.Fatalf("session %s: %d entries (%v), want %d", id, len(log), err, want)
		}
	}
	if log, _ := s.Log("s1"); !strings.HasPrefix(log[2].Text, "big output") {
		t.Fatalf("the value-log entry did not survive: %+v", log[2])
	}
}

func TestRepairLeavesOutTheDamagedTable(t *testing.T) {
	dir, newTable := twoTableStore(t)
	data, err := os.ReadFile(newTable)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/4] ^= 0x40
	if err := os.WriteFile(newTable, data, 0o600); err != nil {
		t.Fatal(err)
	}
	openMustBeDamaged(t, dir)
	rep, s := repairAndOpen(t, dir)
	if len(rep.BadTables) != 1 || rep.BadTables[0] != filepath.Base(newTable) {
		t.Fatalf("bad tables = %v, want [%s]", rep.BadTables, filepath.Base(newTable))
	}
	log, err := s.Log("s1")
	if err != nil || len(log) != 4 || log[0].Text != "hello" {
		t.Fatalf("the undamaged session was not salvaged: %d entries, %v", len(log), err)
	}
	backup, err := os.ReadFile(filepath.Join(rep.Backup, filepath.Base(newTable)))
	if err != nil || string(backup) != string(data) {
		t.Fatalf("the backup does not hold the damaged table as it was: %v", err)
	}
}

func TestRepairCountsLostValues(t *testing.T) {
	dir := closedStoreWithSession(t)
	for _, vlog := range storeFilesWithSuffix(t, dir, ".vlog") {
		data, err := os.ReadFile(vlog)
		if err != nil {
			t.Fatal(err)
		}
		if i := strings.Index(string(data), "big output"); i >= 0 {
			data[i+50] ^= 0x01
			if err := os.WriteFile(vlog, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, s := repairAndOpen(t, dir)
	if rep.Lost != 1 {
		t.Fatalf("report = %+v; want the one damaged value lost", rep)
	}
	log, err := s.Log("s1")
	if err != nil || len(log) != 4 || log[2].Event != DamagedEntryEvent || log[3].Text != "done" {
		t.Fatalf("log after repair: %d entries, %v; want 4 with entry 3 marked lost", len(log), err)
	}
}

func TestRepairRefusesStoreInUse(t *testing.T) {
	_, dir := openTemp(t)
	if _, err := Repair(dir, time.Now(), nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("Repair of an open store: %v, want ErrLocked", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the store in use was moved: %v", err)
	}
}
