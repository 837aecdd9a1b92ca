package store

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// A session's log is append-only with contiguous seqs (1, 2, 3, … with no deletes), so a read
// can tell when entries it should have seen are not there. Badger ends an iteration without an
// error at a table block that fails its checksum, which would otherwise return a silently
// shorter log. Two checks report what is lost instead: a jump in seq between two entries read,
// and a log that ends before the last seq the session's meta recorded (SessionMeta.LogSeq,
// written in the same transactions as the entries).

// missingEntries stands in for entries first..last, which the store no longer has. Its Seq is
// last, so a reader that pages on after it goes on after the gap.
func missingEntries(first, last uint64) *Entry {
	what := fmt.Sprintf("entry %d of this session is", first)
	if last > first {
		what = fmt.Sprintf("entries %d–%d of this session are", first, last)
	}
	return &Entry{
		Seq:   last,
		Kind:  KindSystem,
		Event: DamagedEntryEvent,
		Text:  what + " missing from the store (a damaged block on disk) and lost; troupe doctor checks the store",
	}
}

// loggedThrough is the last log seq session's stored meta recorded (0 when it has no meta, an
// unreadable one, or one written before LogSeq existed: then there is nothing to check against).
func loggedThrough(txn *badger.Txn, session string) uint64 {
	item, err := txn.Get(metaKey(session))
	if err != nil {
		return 0
	}
	var m struct {
		LogSeq uint64 `json:"log_seq"`
	}
	if item.Value(func(v []byte) error { return json.Unmarshal(v, &m) }) != nil {
		return 0
	}
	return m.LogSeq
}

// knownLastSeq is the highest seq session's log has had: its last stored key, or the meta's
// record when that is higher (a damaged tail must not have its seqs written again).
func (s *Store) knownLastSeq(session string) (uint64, error) {
	last, err := s.lastSeq(session)
	if err != nil {
		return 0, err
	}
	var recorded uint64
	err = s.view(func(txn *badger.Txn) error {
		recorded = loggedThrough(txn, session)
		return nil
	})
	if err != nil && !errors.Is(err, badger.ErrKeyNotFound) {
		return 0, fmt.Errorf("read the recorded last seq: %w", err)
	}
	return max(last, recorded), nil
}
