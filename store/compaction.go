package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// One-shot runs (`troupe run`) open the store, write a short session and close it. Badger
// flushes the memtable to a new level-0 table at Close, and the process exits long before
// Badger's compactors (which start after a random delay of up to a second) get to run. Each run's
// table holds only its own session's keys, and since session ids grow with time the tables never
// overlap: even a compaction moves each one down alone, so the table count, and with it the open
// time, grew by one per run.
//
// Two things bound it. Close stamps writtenMarkerKey after any write, so every run's table spans
// up to that one key and all of them overlap each other (and the newest lower-level table): one
// compaction merges them into tables of Badger's target size. And when Open finds
// level0CompactAt level-0 tables or more, Close compacts level 0 after flushing
// (Badger's CompactL0OnClose, run once no compactor or writer is left): one close in a few pays
// for merging the last few runs' tables with the tail of the level below, a few milliseconds.

// level0CompactAt is the level-0 table count at which Close compacts level 0. Below it a close
// costs nothing extra; at it, the tables merge. Measured with bench/storecycles.
const level0CompactAt = 4

// writtenStamp is the value of writtenMarkerKey.
type writtenStamp struct {
	Closed time.Time `json:"closed"`
}

// stampWritten records, if this Store wrote anything since it opened, when it closed: the
// marker every run's flushed table shares (see above).
func (s *Store) stampWritten() error {
	if s.db.IsClosed() || s.db.MaxVersion() == s.openVersion {
		return nil // read only: no table will be flushed, nothing to merge
	}
	b, err := json.Marshal(writtenStamp{Closed: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("encode close stamp: %w", err)
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(writtenMarkerKey, b) }); err != nil {
		return fmt.Errorf("stamp close: %w", err)
	}
	return nil
}
