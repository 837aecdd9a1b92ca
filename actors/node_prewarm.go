package actors

import (
	"crypto/ed25519"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// Prewarm is the part of a node's start that can run before the node has its orders: the
// Ed25519 tables its bus keys are made and checked with (built once per process, on first use),
// the built-in tools' compiled argument schemas and, for the project the process stands in (its
// working directory's), the store's open. A node process started before it knows its
// arguments (one a client started early, cmd/troupe/internal/prespawn) runs it while it waits
// for its orders; the Node it then starts (NodeOptions.Prewarm) uses those schemas, waiting for
// the prewarm instead of compiling them a second time, and takes the store if it is the one it
// opens (StartNode), so that Badger's open runs while the client is still busy.
//
// The store is opened early only if it exists: a process that is then dropped (Drop: its client
// did not need it) closes it, having written nothing, and leaves no store where there was none.
// It holds the store's lock from then on, so two racing clients are still settled by it.
type Prewarm struct {
	schemas tools.SchemaCache
	done    chan struct{}
	// started is closed once the early store's Start has returned; store is then the store
	// started (nil: none, or Start failed: StartNode starts its own and reports why).
	started chan struct{}
	store   *store.Store
	began   time.Time
}

// StartPrewarm starts the prewarm on a goroutine that ends once it is done. root is the project
// the process stands in ("": none, no early store); log gets the early store's log lines.
func StartPrewarm(root string, log *slog.Logger) *Prewarm {
	p := &Prewarm{done: make(chan struct{}), started: make(chan struct{}), began: time.Now()}
	// The store on a goroutine of its own (ends once Start returns: it takes the lock and
	// checks the files, then leaves Badger's open, the longest part of a node's start, to a
	// goroutine of the store's), beside the rest.
	go p.startStore(root, log)
	go func() {
		defer close(p.done)
		ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)) // the bus keys need it first
		var defaults Node                                      // the tools of a Node with no options
		_, _ = tools.NewRegistryWith(&p.schemas, defaults.nodeTools(true, true, nil)...)
	}()
	return p
}

// startStore starts root's store if it exists, and closes p.started.
func (p *Prewarm) startStore(root string, log *slog.Logger) {
	defer close(p.started)
	if root == "" {
		return
	}
	dir := filepath.Join(StateDir(root), "db")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return // no store yet: the Node creates it once it has its orders
	}
	if st, err := store.Start(dir, log); err == nil {
		p.store = st
	}
}

// takeStore returns the store the prewarm started if it is dir's, once; nil if there is none.
// One started for another directory is closed (its lock released) first.
func (p *Prewarm) takeStore(dir string) *store.Store {
	if p == nil {
		return nil
	}
	<-p.started
	st := p.store
	p.store = nil
	if st != nil && st.Dir() != dir {
		_ = st.Close()
		return nil
	}
	return st
}

// Began is when the prewarm started (its process then waits for its orders); zero for none.
func (p *Prewarm) Began() time.Time {
	if p == nil {
		return time.Time{}
	}
	return p.began
}

// Drop closes the store the prewarm started, if no Node took it: its process needs no node
// after all. It waits for the prewarm's store start first.
func (p *Prewarm) Drop() {
	if p == nil {
		return
	}
	<-p.started
	if st := p.store; st != nil {
		p.store = nil
		_ = st.Close()
	}
}
