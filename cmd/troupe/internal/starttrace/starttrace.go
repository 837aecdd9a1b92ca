// Package starttrace times troupe's start-up: with TROUPE_TRACE_START=1 the CLI writes one line
// per phase to stderr, which bench/startup.sh turns into per-phase timings.
package starttrace

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

// Env turns the start-up trace on: TROUPE_TRACE_START=1 makes troupe write one line
// per start-up phase to stderr, "troupe-start PHASE UNIX_NANOS", which bench/startup.sh turns
// into per-phase timings against the moment it exec'd the binary.
const Env = "TROUPE_TRACE_START"

// The phases, in the order a one-shot run passes them.
const (
	Awaiting = "awaiting" // a node started early (prespawn) is initialised and waits for its orders
	Main     = "main"     // package initialisation is over (a node started early: its orders came), main runs
	Config   = "config"   // project root found, configuration loaded and validated
	Spawned  = "spawned"  // a node started in the background (troupe serve) said it is ready
	Store    = "store"    // the store is open (only when this process owns the Node)
	Bus      = "bus"      // the bus and the actor system are up, node.json written
	Attached = "attached" // a client is connected (to our own Node or to a running one)
	Request  = "request"  // the first model request leaves (only when this process owns the Node)
	Event    = "event"    // the session's first event arrived
	Finished = "finished" // session.finished arrived
	Exit     = "exit"     // teardown is over, the process is about to exit
)

// Trace writes each phase's timestamp once. A nil *Trace traces nothing.
type Trace struct {
	mu   sync.Mutex
	w    io.Writer
	seen map[string]bool
}

// New returns the trace to w if getenv says it is on, else nil.
func New(w io.Writer, getenv func(string) string) *Trace {
	if getenv(Env) != "1" {
		return nil
	}
	return &Trace{w: w, seen: map[string]bool{}}
}

// Mark records that phase is reached now; later marks of the same phase are ignored.
func (t *Trace) Mark(phase string) { t.MarkAt(phase, time.Now()) }

// MarkAt records that phase was reached at when (a moment before the trace existed); a zero
// when is no mark.
func (t *Trace) MarkAt(phase string, when time.Time) {
	if t == nil || when.IsZero() {
		return
	}
	now := when.UnixNano()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seen[phase] {
		return
	}
	t.seen[phase] = true
	fmt.Fprintf(t.w, "troupe-start %s %d\n", phase, now)
}

// PhaseFunc is Mark as a plain function for components that report phases (nil when off, so
// they skip even the call).
func (t *Trace) PhaseFunc() func(string) {
	if t == nil {
		return nil
	}
	return t.Mark
}

// Provider marks the first model request of p.
func (t *Trace) Provider(p llm.Provider) llm.Provider {
	if t == nil {
		return p
	}
	return tracedProvider{p: p, t: t}
}

type tracedProvider struct {
	p llm.Provider
	t *Trace
}

func (tp tracedProvider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	tp.t.Mark(Request)
	return tp.p.Stream(ctx, req, emit)
}
