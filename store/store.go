// Package store is troupe's durable state: one Badger database per project holding session
// transcripts (an append-only log per session), session metadata, content-addressed artifacts,
// and room for file-state records, goals, memory and lessons under their own key prefixes.
//
// Key layout (values are JSON unless noted):
//
//	s/<session>/meta        SessionMeta
//	s/<session>/log/<seq>   Entry; seq is 16 zero-padded hex digits, so byte order is seq order
//	s/<session>/<name>      a named per-session record (goal, fs/<path>, …): PutValue/Value
//	a/<sha256 hex>          artifact bytes (raw)
//	m/profile, m/facts, l/<id>  memory and lessons (owned by other packages, same DB)
//
// Writes that belong together go in one transaction. A SIGKILL at any moment loses no
// acknowledged write (Badger's write-ahead memtable file lives in the page cache); only power
// loss needs Sync, which callers invoke at turn boundaries.
package store

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// ErrNotFound is wrapped by lookups of a session, record or artifact that is not stored.
var ErrNotFound = errors.New("not found")

// ErrLocked is wrapped by Open when another process holds the store: attach to that process
// (its Node) instead of opening the store a second time.
var ErrLocked = errors.New("store locked by another process")

// Store is a troupe database. It is safe for concurrent use. One returned by Start may still
// be opening: every method waits for the open to end first (Ready).
type Store struct {
	db     *badger.DB // set once opened is closed, and only if the open succeeded
	dir    string
	syncer *syncer // SyncSoon's background syncs
	// opened is closed once the open (Start's background half) has ended; openErr is then why
	// it failed, or nil. unlock releases the directory lock the Store holds for its life.
	opened  chan struct{}
	openErr error
	unlock  func()
	// writes counts the write transactions committed; stampedWrites is the count when
	// writtenMarkerKey was last stamped (compaction.go).
	writes        atomic.Uint64
	writeStampMu  sync.Mutex
	stampedWrites uint64

	seqMu sync.Mutex
	seqs  map[string]*sessionSeq // per-session append counters, loaded on first use

	stampMu   sync.Mutex
	lastStamp time.Time // last Updated stamp handed out, so stamps strictly increase

	memoryMu sync.Mutex // one project-facts update at a time (store/memory.go)
	// repairsMu: one repair-counter update at a time. The counters are the project's, read,
	// added to and written back by every session; only this process writes them (Badger locks
	// its directory), so the lock means no transaction ever conflicts on them, and repairs
	// keeps each model's stored counters once read or written (store/repairs.go).
	repairsMu sync.Mutex
	repairs   map[string]RepairStats

	hook atomic.Pointer[CommitHook] // told of each committed append and meta (store/hook.go)
	soon inflight                   // queued commits not yet done (store/soon.go)
}

// Open opens (creating if needed) the store in dir with options sized for a small footprint.
// Badger's own log lines go to logger: errors and warnings only. A store whose files are
// damaged is not opened (and so never written over): the error is a *DamageError.
func Open(dir string, logger *slog.Logger) (*Store, error) {
	s, err := Start(dir, logger)
	if err != nil {
		return nil, err
	}
	if err := s.Ready(); err != nil {
		return nil, err
	}
	return s, nil
}

// Start is Open in two halves, for a process that has other work to do while the store opens
// (a node starting: docs/ARCHITECTURE.md "The node process"). What decides whether the store is
// this process's to open runs before it returns: the directory lock (a store another process
// holds is ErrLocked at once) and the checks of the files (a damaged store is a *DamageError at
// once). Badger's open itself, which replays the write-ahead log and maps the files, runs on a
// goroutine that ends with it; every method of the returned Store waits for it, so a write made
// meanwhile is acknowledged only once it is committed, as with a Store from Open. Ready waits
// and says whether it failed; Close and Sync release the lock either way.
func Start(dir string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create store directory %s: %w", dir, err)
	}
	// The lock Badger takes, taken here (Badger is then told not to) so that it is held from
	// the first check to the close: nothing can change the files between the two.
	unlock, err := lockDir(dir, "attach to it instead, or stop it first")
	if err != nil {
		return nil, err
	}
	// The pid file Badger writes beside its lock, which names the holder to another process.
	pidFile := filepath.Join(dir, "LOCK")
	if err := os.WriteFile(pidFile, fmt.Appendf(nil, "%d\n", os.Getpid()), 0o600); err != nil {
		unlock()
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	unlockDir := unlock
	unlock = func() { _ = os.Remove(pidFile); unlockDir() }
	level0, err := checkBeforeOpen(dir)
	if err == nil {
		err = removeEmptyWALs(dir)
	}
	if err != nil {
		unlock()
		return nil, err
	}
	s := &Store{dir: dir, seqs: make(map[string]*sessionSeq), opened: make(chan struct{}), unlock: unlock}
	s.syncer = newSyncer(s.Sync, logger, syncEvery)
	go s.open(smallOptions(dir, logger).WithBypassLockGuard(true), level0) // ends with the open
	return s, nil
}

// open is Start's background half: Badger's open (after a level-0 compaction when level0 says
// it is due, compaction.go). It closes s.opened when done; a failed open releases the lock.
func (s *Store) open(opts badger.Options, level0 int) {
	defer close(s.opened)
	if level0 >= level0CompactAt {
		if err := compactLevel0(opts); err != nil {
			s.openErr = classifyOpenError(s.dir, err)
			s.unlock()
			return
		}
		level0 = 0
	}
	db, err := openBadger(opts.WithCompactL0OnClose(compactAtClose(level0)))
	if err != nil {
		s.openErr = classifyOpenError(s.dir, err)
		s.unlock()
		return
	}
	s.db = db
}

// Ready waits until the store is open, and returns why it could not be opened, if it could not
// (the error Open would have returned).
func (s *Store) Ready() error {
	<-s.opened
	return s.openErr
}

// smallOptions are Badger's defaults trimmed to what a coding-agent transcript needs. The
// defaults zero an 83 MiB memtable arena at open and hold ~85 MiB of heap; these hold a few.
// Constraints Badger enforces: ValueThreshold ≤ 15% of MemTableSize, NumCompactors ≠ 1, and a
// zero BlockCacheSize only without compression (Snappy with no cache panics).
//
// The memtable is small because every node start pays for it (bench/startup.sh): Badger
// allocates its arena (MemTableSize plus 30 %) once for the write-ahead log it replays and once
// for a fresh memtable, and reads in the first pages of a write-ahead file twice its size. At
// 4 MiB an open cost 15-20 ms of CPU and the idle node held a 5.3 MiB arena; at 1 MiB, 6-10 ms
// and 1.3 MiB. A transaction is bounded by 15 % of it (157 KB, else ErrTxnTooBig), counting a
// value over ValueThreshold as a pointer into the value log: at 1 KB, a forked child's
// inherited context of 48 tool results of 24 KB fits in one Append (the largest transaction
// the store makes; at the old 32 KB it failed past ~600 KB), store/options_test.go. ValueLogFileSize also caps one value: messages over the bus
// limit (8 MiB) are stored as artifacts, so it stays at 16 MiB.
func smallOptions(dir string, logger *slog.Logger) badger.Options {
	return badger.DefaultOptions(dir).
		WithMemTableSize(1 << 20).
		WithNumMemtables(2).
		WithNumLevelZeroTables(2).
		WithNumLevelZeroTablesStall(4).
		WithBaseTableSize(1 << 20).
		WithValueThreshold(1 << 10).
		WithValueLogFileSize(16 << 20).
		WithNumCompactors(2).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithIndexCacheSize(0).
		WithMetricsEnabled(false).
		WithSyncWrites(false).
		// Tables are verified whole before Open (checkBeforeOpen), every block when it is read,
		// and every value-log value on read: a flipped bit is an error, never different text.
		WithChecksumVerificationMode(options.OnBlockRead).
		WithVerifyValueChecksum(true).
		WithLogger(badgerLogger{logger})
}

// isLockError recognises Badger's directory-lock failure. Badger formats the underlying
// EWOULDBLOCK into its message (%+v) rather than wrapping it, so the text is all there is.
func isLockError(err error) bool {
	return strings.Contains(err.Error(), "Cannot acquire directory lock")
}

// lockHolder reads the pid Badger writes into its LOCK file, or "?" when it cannot.
func lockHolder(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "LOCK"))
	if err != nil || strings.TrimSpace(string(b)) == "" {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// Dir is the directory the store lives in.
func (s *Store) Dir() string { return s.dir }

// Close flushes and closes the database, and releases its directory.
func (s *Store) Close() error {
	s.syncer.halt()
	if err := s.Ready(); err != nil {
		return err // the failed open released the directory
	}
	defer s.unlock()
	s.soon.wait() // the queued writes commit before the stamp and the close
	if err := s.stampWritten(); err != nil {
		s.db.Close()
		return fmt.Errorf("close store %s: %w", s.dir, err)
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close store %s: %w", s.dir, err)
	}
	return nil
}

// Sync forces written data to disk, so acknowledged writes also survive power loss.
func (s *Store) Sync() error {
	if err := s.Ready(); err != nil {
		return err
	}
	if err := s.stampWritten(); err != nil {
		return fmt.Errorf("sync store %s: %w", s.dir, err)
	}
	if err := s.db.Sync(); err != nil {
		return fmt.Errorf("sync store %s: %w", s.dir, err)
	}
	return nil
}

// SyncSoon is Sync without the wait: the writes acknowledged so far reach the disk within one
// sync's time (a sync already running is followed by one more), or, in a burst of requests,
// within syncEvery plus one sync (syncer.go), while the caller goes on. For
// turn boundaries, where a session would otherwise block on the disk; a SIGKILL loses nothing
// either way, and Sync (or Close) is still the way to be sure before exiting.
func (s *Store) SyncSoon() { s.syncer.request() }

// stamp returns the current UTC time, strictly after every stamp this Store handed out
// before, so "newest first" is well defined even on a coarse clock.
func (s *Store) stamp() time.Time {
	s.stampMu.Lock()
	defer s.stampMu.Unlock()
	now := time.Now().UTC().Round(0)
	if !now.After(s.lastStamp) {
		now = s.lastStamp.Add(time.Nanosecond)
	}
	s.lastStamp = now
	return now
}
