package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// One-shot runs (`troupe run`) open the store, write a short session and exit: synced but not
// closed (actors.Node.CloseForExit), so the next open replays the run's write-ahead log and
// flushes it as a new level-0 table; a process that closes flushes it at Close. Either way the
// process exits long before Badger's compactors (which start after a random delay of up to a
// second) run. Each run's table holds only its own session's keys, and since session ids grow
// with time the tables never overlap: even a compaction moves each one down alone (Badger never
// merges tables that do not overlap), so the table count, and with it the open time, grew by
// one per run.
//
// Two things bound it. Sync and Close stamp writtenMarkerKey after any write, so every run's
// table reaches up to that one key, and all of them overlap each other and the newest table
// below: one compaction merges them into tables of Badger's target size. And when Open finds
// level0CompactAt level-0 tables or more, it compacts level 0 before opening for use: it opens
// Badger with CompactL0OnClose and closes it at once (the close flushes the replayed log and
// compacts level 0 with no compactor or writer left, the one moment Badger's API makes that
// safe), then opens as usual. One open in four pays that (10-20 ms more, bench/storecycles); the
// others pay nothing. A crash in the middle is a crash in a Badger compaction, which Badger
// survives.
//
// A store closed whole (a node's exit: nobody waits on it) takes that work off the next open: an
// open that finds level0CompactAt-1 level-0 tables sets CompactL0OnClose, so its Close, which
// flushes the table that would have reached the count, merges them then. The next open, a
// user's cold start, finds none to merge; the open's compaction stays for stores left unclosed
// (a one-shot's own node, a crash).

// level0CompactAt is the level-0 table count at which Open compacts level 0 first. Measured with
// bench/storecycles.
const level0CompactAt = 4

// compactAtClose reports whether a store opened with level0 level-0 tables compacts level 0 when
// it is closed: when the table its Close flushes would bring the next open to level0CompactAt.
func compactAtClose(level0 int) bool { return level0+1 >= level0CompactAt }

// compactLevel0 merges dir's level-0 tables (and any write-ahead log left by a run that did not
// close) into the level below.
func compactLevel0(opts badger.Options) error {
	db, err := openBadger(opts.WithCompactL0OnClose(true))
	if err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("compact level 0: %w", err)
	}
	return nil
}

// writtenStamp is the value of writtenMarkerKey.
type writtenStamp struct {
	At time.Time `json:"at"`
}

// update is db.Update counting the writes that commit, so Sync and Close know whether this Store
// wrote since it last stamped (Badger's own MaxVersion races with writes in flight).
func (s *Store) update(fn func(txn *badger.Txn) error) error {
	if err := s.Ready(); err != nil {
		return err
	}
	if err := s.db.Update(fn); err != nil {
		return err
	}
	s.writes.Add(1)
	return nil
}

// view is db.View once the store is open (Start).
func (s *Store) view(fn func(txn *badger.Txn) error) error {
	if err := s.Ready(); err != nil {
		return err
	}
	return s.db.View(fn)
}

// stampWritten records, if this Store wrote anything since it opened or last stamped, when: the
// marker every run's flushed table shares (see above). Read-only use stamps nothing, so it
// leaves no table behind.
func (s *Store) stampWritten() error {
	s.writeStampMu.Lock()
	defer s.writeStampMu.Unlock()
	writes := s.writes.Load()
	if writes == s.stampedWrites || s.db.IsClosed() {
		return nil
	}
	b, err := json.Marshal(writtenStamp{At: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("encode write stamp: %w", err)
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(writtenMarkerKey, b) }); err != nil {
		return fmt.Errorf("stamp writes: %w", err)
	}
	s.stampedWrites = writes
	return nil
}
