package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// Follower prints one session's events for attach. Until goLive, events are held back (the
// log is being replayed); then those the replay already covered are dropped and the rest
// printed as they come.
type Follower struct {
	p        *Printer
	json     bool
	finished chan *messages.SessionFinishedData

	mu      sync.Mutex
	live    bool
	held    [][]byte
	covered Replayed
}

// NewFollower prints through p; json says p prints envelopes (nothing is then left out).
func NewFollower(p *Printer, json bool) *Follower {
	return &Follower{p: p, json: json, finished: make(chan *messages.SessionFinishedData, 1)}
}

// Finished delivers the session's outcome once its session.finished event was printed.
func (f *Follower) Finished() <-chan *messages.SessionFinishedData { return f.finished }

// Event takes one raw envelope of the session's events.
func (f *Follower) Event(data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.live {
		f.held = append(f.held, data)
		return
	}
	f.show(data)
}

// GoLive prints the events held back, except what the replay already printed, and lets the
// next ones through as they come.
func (f *Follower) GoLive(printed Replayed) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.covered = printed
	for _, data := range f.held {
		f.show(data)
	}
	f.held, f.live = nil, true
}

func (f *Follower) show(data []byte) {
	if !f.json && f.covered.has(data) {
		return
	}
	if fin := f.p.Event(data); fin != nil {
		select {
		case f.finished <- fin:
		default:
		}
	}
}

// Replayed is what a log replay printed, to recognise the events that repeat it.
type Replayed struct {
	started, results, denied map[string]bool // call ids
	lastAnswer               time.Time       // commit time of the last assistant entry
}

// has reports whether the replay already printed what the event says. Text is streamed
// before its entry is committed, so deltas up to the last committed answer are in the log;
// tool lines are matched by call id.
func (r Replayed) has(data []byte) bool {
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil {
		return false
	}
	var call struct {
		CallID   string            `json:"call_id"`
		Decision messages.Decision `json:"decision"`
	}
	_ = json.Unmarshal(env.Data, &call)
	switch env.Type {
	case messages.EventTextDelta:
		return !env.TS.After(r.lastAnswer)
	case messages.EventToolStarted:
		return r.started[call.CallID]
	case messages.EventToolFinished:
		return r.results[call.CallID]
	case messages.EventToolDecision, messages.EventToolRejected:
		return call.Decision == messages.DecisionDenied && r.denied[call.CallID]
	}
	return false
}

// ReplayLog prints a stored log as troupe run prints the live session: the answers, a line per
// tool call and its outcome, denials in full. It returns what it printed.
func ReplayLog(w io.Writer, entries []messages.LogEntry) Replayed {
	r := Replayed{started: map[string]bool{}, results: map[string]bool{}, denied: map[string]bool{}}
	calls := map[string]messages.LogCall{}
	var order []string
	var prev time.Time
	announce := func(id string) {
		if c, ok := calls[id]; ok && !r.started[id] {
			fmt.Fprintf(w, "→ %s\n", summarizeCall(c.Name, c.Args))
			r.started[id] = true
		}
	}
	for _, e := range entries {
		switch e.Kind {
		case messages.LogAssistant:
			if e.Text != "" {
				fmt.Fprint(w, e.Text)
				if !strings.HasSuffix(e.Text, "\n") {
					fmt.Fprintln(w)
				}
			}
			for _, c := range e.Calls {
				calls[c.ID] = c
				order = append(order, c.ID)
			}
			r.lastAnswer = e.Time
		case messages.LogToolResult:
			announce(e.CallID)
			d := &messages.ToolFinishedData{IsError: e.IsError, Output: e.Text, Bytes: len(e.Text)}
			if !prev.IsZero() {
				d.DurationMS = e.Time.Sub(prev).Milliseconds()
			}
			fmt.Fprintf(w, "  %s\n", toolOutcome(d))
			r.results[e.CallID] = true
		case messages.LogSystem:
			var d messages.DecisionData
			if (e.Event == string(messages.EventToolRejected) || e.Event == string(messages.EventToolDecision)) &&
				json.Unmarshal(e.Data, &d) == nil && d.Decision == messages.DecisionDenied {
				announce(e.CallID)
				fmt.Fprintf(w, "  ⊘ %s\n", d.Reason)
				r.denied[e.CallID] = true
			}
		}
		prev = e.Time
	}
	for _, id := range order {
		if !r.results[id] {
			announce(id) // running now: its result comes live
		}
	}
	return r
}

// summarizeCall is the one-line form of a call, as sessions put it in tool events: the tool
// and its main argument.
func summarizeCall(name, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return name + " (unparsed arguments)"
	}
	for _, key := range []string{"path", "command", "pattern", "url", "task_name"} {
		if v, ok := m[key].(string); ok {
			return name + " " + textfmt.ClipRunes(firstLineOf(v), 120)
		}
	}
	return name
}
