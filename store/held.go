package store

import (
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Queued log entries ride with the session's next write. An AppendSoon entry (a tool
// decision's audit record) is held, encoded and numbered, under the session's append lock;
// the session's next write of its log, its meta or one of its records (Append,
// AppendWithMeta…, PutMeta…, PutMetaSoon, PutValue) puts it first in its own transaction, and a timer commits it alone when no
// write comes within heldFor (a tool that runs longer). A turn whose tool answers at once so
// makes one Badger commit fewer: every commit is a hand-off to Badger's writer goroutine and
// its watermarks and back (issue 19). The order of soon.go holds: a held entry commits before,
// or with, anything the session writes after it, and Close commits what is held.

// heldFor is how long a queued entry waits for the session's next write before it is
// committed alone.
const heldFor = 5 * time.Millisecond

// heldEntry is one encoded log entry waiting for the session's next write.
type heldEntry struct{ key, value []byte }

// hold queues encoded entries on counter (locked by the caller) and arms the timer that
// commits them alone if no write of the session takes them first.
func (s *Store) hold(session string, counter *sessionSeq, entries []heldEntry) {
	counter.held = append(counter.held, entries...)
	if counter.heldTimer != nil {
		return
	}
	s.soon.add() // Close waits for the timer's commit
	counter.heldTimer = time.AfterFunc(heldFor, func() { s.commitHeld(session, counter) })
}

// putHeld writes counter's held entries (the caller holds its lock) into txn, ahead of the
// write's own; tookHeld forgets them once that write has committed.
func putHeld(txn *badger.Txn, counter *sessionSeq) error {
	for _, h := range counter.held {
		if err := txn.Set(h.key, h.value); err != nil {
			return err
		}
	}
	return nil
}

// tookHeld forgets the held entries a write of the session committed (or queued) with its
// own, and stops the timer that would have committed them alone. A timer that fires anyway
// finds nothing held.
func (s *Store) tookHeld(counter *sessionSeq) {
	counter.held = nil
	if counter.heldTimer != nil && counter.heldTimer.Stop() {
		s.soon.done()
	}
	counter.heldTimer = nil
}

// commitHeld is the timer's commit of what no write took within heldFor.
func (s *Store) commitHeld(session string, counter *sessionSeq) {
	defer s.soon.done()
	counter.mu.Lock()
	defer counter.mu.Unlock()
	if len(counter.held) == 0 {
		return
	}
	err := s.update(func(txn *badger.Txn) error { return putHeld(txn, counter) })
	if err != nil {
		s.syncer.log.Error("a queued write of the store failed", "session", session, "err", err)
		counter.loaded = false // the next append finds the last seq stored
	}
	counter.held, counter.heldTimer = nil, nil
}
