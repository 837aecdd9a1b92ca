package store

import (
	"log/slog"
	"sync"
	"time"
)

// syncEvery is the least time between the starts of two background syncs (see syncer).
const syncEvery = 20 * time.Millisecond

// syncer runs the store's power-loss syncs off the caller's goroutine. A sync is an msync of
// Badger's write-ahead file: hundreds of microseconds to milliseconds of blocking I/O, which a
// session pays at every turn boundary if it waits for it. Requests made while a sync runs are
// coalesced into the next one, so at most one sync runs and at most one is pending.
//
// Syncs are spaced: one starts at most every syncEvery. A sync holds Badger's lock on the
// write-ahead file while it msyncs, and every commit of every session waits for that lock.
// Back to back, as turns ending every few hundred microseconds asked for them (parallel
// subagents, a model that answers at once), the syncs stalled the commits they follow: on an
// idle machine, where the syncer got a CPU at once, a sync every second turn held a commit for
// 100-300 µs (issue 19). A request after a quiet spell still syncs at once; in a burst, what was
// acknowledged reaches the disk within syncEvery plus one sync.
//
// It is owned by the Store: started on the first request, stopped by Store.Close (which syncs
// synchronously after it).
type syncer struct {
	sync  func() error
	log   *slog.Logger
	every time.Duration // the least time between two syncs' starts

	mu      sync.Mutex
	kick    chan struct{} // capacity 1: a pending request
	stop    chan struct{}
	done    chan struct{}
	started bool
	stopped bool
}

func newSyncer(sync func() error, log *slog.Logger, every time.Duration) *syncer {
	return &syncer{sync: sync, log: log, every: every, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// request asks for a sync soon and returns at once. After stop, it does nothing (Close syncs).
func (y *syncer) request() {
	y.mu.Lock()
	if y.stopped {
		y.mu.Unlock()
		return
	}
	if !y.started {
		y.started = true
		go y.run()
	}
	y.mu.Unlock()
	select {
	case y.kick <- struct{}{}:
	default: // one is pending already: it covers this request's writes too
	}
}

func (y *syncer) run() {
	defer close(y.done)
	spacing := time.NewTimer(time.Hour)
	spacing.Stop()
	var last time.Time // the start of the last sync
	for {
		select {
		case <-y.stop:
			return
		case <-y.kick:
		}
		if wait := y.every - time.Since(last); !last.IsZero() && wait > 0 {
			spacing.Reset(wait)
			select {
			case <-y.stop: // Close syncs what is waiting
				spacing.Stop()
				return
			case <-spacing.C:
			}
		}
		last = time.Now()
		if err := y.sync(); err != nil {
			y.log.Warn("sync store", "err", err)
		}
	}
}

// halt stops the goroutine and waits for a sync in progress to end. Safe to call twice.
func (y *syncer) halt() {
	y.mu.Lock()
	started := y.started
	if y.stopped {
		y.mu.Unlock()
		return
	}
	y.stopped = true
	y.mu.Unlock()
	close(y.stop)
	if started {
		<-y.done
	}
}
