package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// PutValue stores v as JSON under s/<session>/<name>: the home of per-session records such as
// "goal" or "fs/<path>". The names "meta" and "log/…" belong to PutMeta and Append.
func (s *Store) PutValue(session, name string, v any) error {
	if err := checkValueName(session, name); err != nil {
		return fmt.Errorf("put value: %w", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("put session %s %s: encode: %w", session, name, err)
	}
	// Under the session's append lock: a queued log entry goes first in this transaction, so
	// nothing the session writes after it commits without it (held.go).
	counter := s.counter(session)
	counter.mu.Lock()
	defer counter.mu.Unlock()
	err = s.update(func(txn *badger.Txn) error {
		if err := putHeld(txn, counter); err != nil {
			return fmt.Errorf("write queued entries: %w", err)
		}
		return txn.Set(valueKey(session, name), b)
	})
	if err != nil {
		return fmt.Errorf("put session %s %s: %w", session, name, err)
	}
	s.tookHeld(counter)
	return nil
}

// Value decodes the record s/<session>/<name> into v; the error wraps ErrNotFound if there is
// none.
func (s *Store) Value(session, name string, v any) error {
	if err := checkValueName(session, name); err != nil {
		return fmt.Errorf("get value: %w", err)
	}
	err := s.view(func(txn *badger.Txn) error {
		item, err := txn.Get(valueKey(session, name))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return item.Value(func(b []byte) error { return json.Unmarshal(b, v) })
	})
	if err != nil {
		return fmt.Errorf("session %s %s: %w", session, name, err)
	}
	return nil
}

// checkValueName keeps named records out of the keys the store manages itself.
func checkValueName(session, name string) error {
	if err := checkSessionID(session); err != nil {
		return err
	}
	if name == "" || name == metaName || strings.HasPrefix(name, logName) {
		return fmt.Errorf("record name %q is empty or reserved (meta, log/…)", name)
	}
	return nil
}

// EachValue calls fn with the name and JSON of every record s/<session>/<prefix>…, in key order
// (e.g. prefix "fs/" for the file-state records of a session).
func (s *Store) EachValue(session, prefix string, fn func(name string, raw []byte) error) error {
	if err := checkSessionID(session); err != nil {
		return fmt.Errorf("scan values: %w", err)
	}
	base := valueKey(session, "")
	full := append(append([]byte(nil), base...), prefix...)
	err := s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: full})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			name := string(item.Key()[len(base):])
			if err := item.Value(func(b []byte) error { return fn(name, b) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("scan session %s %s*: %w", session, prefix, err)
	}
	return nil
}
