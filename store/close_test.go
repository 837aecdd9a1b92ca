package store

import (
	"fmt"
	"testing"
)

// Short runs (open, one write, close) must not pile up level-0 tables: each Close writes the
// memtable out as one, and Badger's own compactors never get to run in a process this short.
// Every value written must survive the compactions.
func TestShortRunsKeepLevelZeroBounded(t *testing.T) {
	dir := t.TempDir()
	const runs = 3 * compactLevelZeroAt
	for i := range runs {
		s, err := Open(dir, nil)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		if err := s.PutValue("sess", fmt.Sprintf("k%03d", i), i); err != nil {
			t.Fatalf("put %d: %v", i, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("close %d: %v", i, err)
		}
	}
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := s.levelZeroTables(); n > compactLevelZeroAt {
		t.Errorf("after %d short runs level 0 holds %d tables, want at most %d", runs, n, compactLevelZeroAt)
	}
	for i := range runs {
		var got int
		if err := s.Value("sess", fmt.Sprintf("k%03d", i), &got); err != nil || got != i {
			t.Errorf("value %d after the compactions: %d, %v", i, got, err)
		}
	}
}
