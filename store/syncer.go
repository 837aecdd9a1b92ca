package store

import (
	"log/slog"
	"sync"
)

// syncer runs the store's power-loss syncs off the caller's goroutine. A sync is an msync of
// Badger's write-ahead file: hundreds of microseconds to milliseconds of blocking I/O, which a
// session pays at every turn boundary if it waits for it. Requests made while a sync runs are
// coalesced into the next one, so at most one sync runs and at most one is pending.
//
// It is owned by the Store: started on the first request, stopped by Store.Close (which syncs
// synchronously after it).
type syncer struct {
	sync func() error
	log  *slog.Logger

	mu      sync.Mutex
	kick    chan struct{} // capacity 1: a pending request
	stop    chan struct{}
	done    chan struct{}
	started bool
	stopped bool
}

func newSyncer(sync func() error, log *slog.Logger) *syncer {
	return &syncer{sync: sync, log: log, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
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
	for {
		select {
		case <-y.stop:
			return
		case <-y.kick:
			if err := y.sync(); err != nil {
				y.log.Warn("sync store", "err", err)
			}
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
