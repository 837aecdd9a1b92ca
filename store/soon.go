package store

import (
	"fmt"
	"sync"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Writes a session does not wait for. A turn made four Badger commits and waited for each:
// every commit is a hand-off to Badger's writer goroutine and back, the largest part of the
// harness's time per turn on a loaded machine (issue 19). Two of them are records nothing
// waits on: the audit entry of a tool decision (its event is out before it is written) and the
// meta at the turn's end (its failure was only ever logged). Those are queued instead: the
// audit entry is held for the session's next write and goes in its transaction (held.go).
//
// Badger commits queued writes in the order they were queued, one batch after the other, and a
// read waits until every commit before its start is done. So a later Append or PutMeta of the
// same session that returns means the queued write committed too, and a read after it sees
// it: nothing written after it can outlive it in a crash, and nothing is acknowledged that
// depends on it alone. A commit that fails is logged (there is no caller left to tell), and the
// session's next append reads its last seq from the store again.
//
// With a commit hook installed (a worker mirroring its children), these wait like the others:
// the hook is told of commits in order, on the appending goroutine.

// AppendSoon appends entries to session's log as Append does, but returns once the write is
// queued rather than committed (see above). An error says it was not queued.
func (s *Store) AppendSoon(session string, entries ...*Entry) error {
	if err := checkSessionID(session); err != nil {
		return fmt.Errorf("append to log: %w", err)
	}
	if s.hook.Load() != nil {
		return s.Append(session, entries...)
	}
	if err := s.Ready(); err != nil {
		return fmt.Errorf("append to session %s log: %w", session, err)
	}
	counter, err := s.lockedCounter(session)
	if err != nil {
		return fmt.Errorf("append to session %s log: %w", session, err)
	}
	defer counter.mu.Unlock()
	now := time.Now().UTC()
	held := make([]heldEntry, len(entries))
	for i, e := range entries {
		seq, at := counter.last+uint64(i)+1, e.Time
		if at.IsZero() {
			at = now
		}
		stored := *e // e keeps its seq and time until every entry is queued
		stored.Seq, stored.Time = seq, at
		b, err := encodeEntry(&stored)
		if err != nil {
			return fmt.Errorf("append to session %s log: entry %d (%s): %w", session, seq, e.Kind, err)
		}
		held[i] = heldEntry{key: logKey(session, seq), value: b}
	}
	for i, e := range entries {
		e.Seq = counter.last + uint64(i) + 1
		if e.Time.IsZero() {
			e.Time = now
		}
	}
	counter.last += uint64(len(entries))
	s.hold(session, counter, held) // with the session's next write, or alone soon (held.go)
	return nil
}

// PutMetaSoon stores m, and adds repairs to the project's counters, as PutMetaAndRepairs does,
// but returns once the write is queued rather than committed (see above); once it is
// committed, the store syncs soon (SyncSoon). m is encoded before it returns, so the caller may
// change it at once. The Store's copy of the counters takes the sum when it is queued, so the
// next write of them adds to it (and, if this one failed, stores it).
func (s *Store) PutMetaSoon(m *SessionMeta, repairs RepairStats) error {
	withRepairs, err := checkMetaWrite(m, repairs)
	if err != nil {
		return err
	}
	if s.hook.Load() != nil {
		err := s.PutMetaAndRepairs(m, repairs)
		s.SyncSoon()
		return err
	}
	if err := s.Ready(); err != nil {
		return fmt.Errorf("put session %s meta: %w", m.ID, err)
	}
	counter := s.counter(m.ID)
	counter.mu.Lock()
	defer counter.mu.Unlock()
	if withRepairs { // the counters are shared by every session (store.go)
		s.repairsMu.Lock()
		defer s.repairsMu.Unlock()
	}
	if counter.loaded {
		m.LogSeq = max(m.LogSeq, counter.last)
	}
	restore := s.stampMeta(m)
	txn := s.db.NewTransaction(true)
	var sum RepairStats
	if err = putHeld(txn, counter); err == nil {
		err = setMeta(txn, m)
	}
	if err == nil && withRepairs {
		// A first read of the stored counters happens here, under repairsMu: the
		// transaction's conflict check is made as it is queued, with the lock still held.
		sum, err = s.addRepairs(txn, repairs)
	}
	if err != nil {
		txn.Discard()
		restore()
		return fmt.Errorf("put session %s meta: %w", m.ID, err)
	}
	if withRepairs {
		s.repairsCommitted(sum)
	}
	s.commitSoon(txn, m.ID, counter, s.SyncSoon)
	s.tookHeld(counter)
	return nil
}

// commitSoon queues txn's commit. Called under counter's lock, so the session's writes queue in
// their order; the callback runs on a goroutine of Badger's once the commit is done (Close
// waits for it).
func (s *Store) commitSoon(txn *badger.Txn, session string, counter *sessionSeq, then func()) {
	s.soon.add()
	defer txn.Discard()
	txn.CommitWith(func(err error) {
		defer s.soon.done()
		if err != nil {
			s.syncer.log.Error("a queued write of the store failed", "session", session, "err", err)
			go func() { // not under the caller's lock: CommitWith may call back at once
				counter.mu.Lock()
				counter.loaded = false // the next append finds the last seq stored
				counter.mu.Unlock()
			}()
			return
		}
		s.writes.Add(1)
		if then != nil {
			then()
		}
	})
}

// inflight counts the queued commits not yet done. (A sync.WaitGroup may not take an Add while
// a Wait is under way, and a session may still queue a write while the Store closes.)
type inflight struct {
	mu   sync.Mutex
	n    int
	none sync.Cond
}

func (f *inflight) add() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *inflight) done() {
	f.mu.Lock()
	if f.n--; f.n == 0 && f.none.L != nil {
		f.none.Broadcast()
	}
	f.mu.Unlock()
}

// wait returns once no queued commit is left.
func (f *inflight) wait() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.none.L = &f.mu
	for f.n > 0 {
		f.none.Wait()
	}
}
