package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// The project facts of the memory (internal/memory): one list of entries per project store,
// and any damaged value set aside beside it before a write replaced it.
var projectMemoryKey = []byte("mem/project")

const projectMemoryDamagedPrefix = "mem/project.damaged/"

// projectMemoryValue is the stored list.
type projectMemoryValue struct {
	Entries []string `json:"entries"`
}

// ProjectMemory returns the project facts; none stored is an empty list. A value that cannot be
// decoded is an error that says so (the next UpdateProjectMemory sets it aside).
func (s *Store) ProjectMemory() ([]string, error) {
	var out []string
	err := s.view(func(txn *badger.Txn) error {
		var err error
		out, _, err = projectMemory(txn)
		return err
	})
	return out, err
}

func projectMemory(txn *badger.Txn) (entries []string, raw []byte, err error) {
	item, err := txn.Get(projectMemoryKey)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read the project facts: %w", err)
	}
	raw, err = item.ValueCopy(nil)
	if err != nil {
		return nil, nil, fmt.Errorf("read the project facts: %w", err)
	}
	var v projectMemoryValue
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, raw, fmt.Errorf("the project facts in the store are damaged (%v): they are not used; the next memory write keeps them under %s and starts a new list", err, projectMemoryDamagedPrefix)
	}
	return v.Entries, raw, nil
}

// UpdateProjectMemory runs fn on the project facts and stores what it returns, in one
// transaction; the sessions of the Node (the only process with the store open) take turns. A
// damaged value is kept under mem/project.damaged/<time> (recovered names the key) and fn
// starts from an empty list.
func (s *Store) UpdateProjectMemory(fn func([]string) ([]string, error)) (recovered string, err error) {
	s.memoryMu.Lock()
	defer s.memoryMu.Unlock()
	for range 5 { // a conflict can only come from a write to the key outside this method
		recovered = ""
		err = s.update(func(txn *badger.Txn) error {
			entries, raw, err := projectMemory(txn)
			if err != nil && raw == nil {
				return err
			}
			next, ferr := fn(entries)
			if ferr != nil {
				return ferr
			}
			if err != nil { // damaged: keep it before it is replaced
				recovered = projectMemoryDamagedPrefix + time.Now().UTC().Format("20060102T150405.000000000Z")
				if err := txn.Set([]byte(recovered), raw); err != nil {
					return err
				}
			}
			if next == nil {
				next = []string{}
			}
			b, err := json.Marshal(projectMemoryValue{Entries: next})
			if err != nil {
				return err
			}
			return txn.Set(projectMemoryKey, b)
		})
		if !errors.Is(err, badger.ErrConflict) {
			return recovered, err
		}
	}
	return "", fmt.Errorf("write the project facts: other sessions kept writing them at the same time; try again")
}
