package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/troupe-dev/troupe/actors/loop"
	"github.com/troupe-dev/troupe/messages"
)

// LoopView prints the events of one loop and of its iterations, and hands the loop's own
// session.finished to the waiting command.
type LoopView struct {
	ID       string // the loop's own session
	Max      int    // its iterations at most
	out      *Printer
	json     bool
	info     io.Writer // per-iteration lines: stdout for people, stderr beside --json
	stderr   io.Writer
	finished chan *messages.SessionFinishedData // the loop's own session.finished (buffered: one)
	mu       sync.Mutex
	running  string // the iteration running now
}

// NewLoopView shows loop id of at most max iterations: the iterations' events on stdout
// (NDJSON envelopes with asJSON), the per-iteration lines on stdout for people, on stderr
// beside --json.
func NewLoopView(id string, max int, asJSON bool, stdout, stderr io.Writer) *LoopView {
	v := &LoopView{ID: id, Max: max, out: NewPrinter(stdout, asJSON), json: asJSON, info: stdout, stderr: stderr,
		finished: make(chan *messages.SessionFinishedData, 1)}
	if asJSON {
		v.info = stderr
	}
	return v
}

// Finished delivers the loop's own outcome.
func (v *LoopView) Finished() <-chan *messages.SessionFinishedData { return v.finished }

// Done prints the final line of a loop that met its objective.
func (v *LoopView) Done(fin *messages.SessionFinishedData) {
	fmt.Fprintf(v.info, "loop %s: %s\n", v.ID, fin.Final)
}

// Event takes every event of the project and shows those of this loop.
func (v *LoopView) Event(data []byte) {
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil || (env.Session != v.ID && env.Parent != v.ID) {
		return
	}
	fin := v.out.Event(data)
	v.mu.Lock()
	defer v.mu.Unlock()
	n, _ := strings.CutPrefix(env.Agent, messages.AgentLoop+"/iter_")
	switch {
	case env.Session == v.ID:
		if fin != nil {
			select {
			case v.finished <- fin:
			default: // the loop finishes once
			}
		}
	case env.Type == messages.EventSessionStarted:
		v.running = env.Session
		if !v.json {
			fmt.Fprintf(v.stderr, "troupe: iteration %s/%d · session %s\n", n, v.Max, env.Session)
		}
	case fin != nil:
		fmt.Fprintf(v.info, "iteration %s/%d: %s\n", n, v.Max, loop.IterationLine(fin))
	}
}

// Current is the iteration running now (the one to cancel when the user leaves at once).
func (v *LoopView) Current() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.running
}
