package store

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// Sessions of one Node write the project facts at once: every add survives (Badger's conflict
// detection retries the loser), and the list survives a reopen.
func TestProjectMemoryConcurrentUpdates(t *testing.T) {
	s, dir := openTemp(t)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5 {
				_, err := s.UpdateProjectMemory(func(e []string) ([]string, error) {
					return append(slices.Clone(e), fmt.Sprintf("w%d-%d", w, i)), nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	s = reopen(t, s, dir)
	got, err := s.ProjectMemory()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 40 {
		t.Fatalf("%d entries after 40 concurrent adds: %v", len(got), got)
	}
}

// A refusal from fn stores nothing; a damaged value is reported on read, kept aside on the
// next write, and replaced.
func TestProjectMemoryDamagedAndRefused(t *testing.T) {
	s, _ := openTemp(t)
	if _, err := s.UpdateProjectMemory(func([]string) ([]string, error) { return []string{"a"}, nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateProjectMemory(func([]string) ([]string, error) { return nil, fmt.Errorf("no") }); err == nil || err.Error() != "no" {
		t.Fatalf("refusal: %v", err)
	}
	if got, _ := s.ProjectMemory(); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("after a refusal: %v", got)
	}
	if err := s.update(func(txn *badger.Txn) error { return txn.Set(projectMemoryKey, []byte("{broken")) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ProjectMemory(); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged read: %v", err)
	}
	rec, err := s.UpdateProjectMemory(func(e []string) ([]string, error) {
		if len(e) != 0 {
			t.Errorf("a damaged list starts empty, got %v", e)
		}
		return []string{"b"}, nil
	})
	if err != nil || !strings.HasPrefix(rec, projectMemoryDamagedPrefix) {
		t.Fatalf("recovered %q, %v", rec, err)
	}
	var kept []byte
	s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get([]byte(rec))
		if err == nil {
			kept, _ = item.ValueCopy(nil)
		}
		return err
	})
	if string(kept) != "{broken" {
		t.Fatalf("the damaged value was not kept: %q", kept)
	}
	if got, _ := s.ProjectMemory(); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("after recovery: %v", got)
	}
}
