package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

// startTraceEnv turns the start-up trace on: TROUPE_TRACE_START=1 makes troupe write one line
// per start-up phase to stderr, "troupe-start PHASE UNIX_NANOS", which bench/startup.sh turns
// into per-phase timings against the moment it exec'd the binary.
const startTraceEnv = "TROUPE_TRACE_START"

// The phases, in the order a one-shot run passes them.
const (
	phaseMain     = "main"     // package initialisation is over, main runs
	phaseConfig   = "config"   // project root found, configuration loaded and validated
	phaseStore    = "store"    // the store is open
	phaseBus      = "bus"      // the bus and the actor system are up, node.json written
	phaseAttached = "attached" // a client is connected (to our own Node or to a running one)
	phaseRequest  = "request"  // the first model request leaves (only when this process owns the Node)
	phaseEvent    = "event"    // the session's first event arrived
	phaseFinished = "finished" // session.finished arrived
	phaseExit     = "exit"     // teardown is over, the process is about to exit
)

// startTrace writes each phase's timestamp once. A nil *startTrace traces nothing.
type startTrace struct {
	mu   sync.Mutex
	w    io.Writer
	seen map[string]bool
}

func newStartTrace(w io.Writer, getenv func(string) string) *startTrace {
	if getenv(startTraceEnv) != "1" {
		return nil
	}
	return &startTrace{w: w, seen: map[string]bool{}}
}

// mark records that phase is reached now; later marks of the same phase are ignored.
func (t *startTrace) mark(phase string) {
	if t == nil {
		return
	}
	now := time.Now().UnixNano()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seen[phase] {
		return
	}
	t.seen[phase] = true
	fmt.Fprintf(t.w, "troupe-start %s %d\n", phase, now)
}

// phaseFunc is mark as a plain function for components that report phases (nil when off, so
// they skip even the call).
func (t *startTrace) phaseFunc() func(string) {
	if t == nil {
		return nil
	}
	return t.mark
}

// provider marks the first model request of p.
func (t *startTrace) provider(p llm.Provider) llm.Provider {
	if t == nil {
		return p
	}
	return tracedProvider{p: p, t: t}
}

type tracedProvider struct {
	p llm.Provider
	t *startTrace
}

func (tp tracedProvider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	tp.t.mark(phaseRequest)
	return tp.p.Stream(ctx, req, emit)
}
