package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/messages"
)

func (m *Main) attachCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "attach ID",
		Short: "Follow a session started elsewhere until it finishes; the exit code tells the outcome as for run (Ctrl-C detaches)",
		Long: "Prints what the session already did (from its stored log) as troupe run does, then its live\n" +
			"events until it finishes, and exits with its outcome: 0 done, 1 failed, 2 setup error,\n" +
			"130 interrupted. Ctrl-C detaches: the session goes on. ID may be a unique suffix of the id.\n" +
			"With --json it prints the live event envelopes (the stored log is not replayed as events).",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return m.follow(c.Context(), args[0], asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the session's live events as NDJSON envelopes on stdout")
	return c
}

// follow attaches to one session: the stored log first, then live events until it finishes.
// Events are subscribed to before the log is read, and those the log already covers are left
// out, so nothing is lost or printed twice between the two.
func (m *Main) follow(ctx context.Context, id string, asJSON bool) error {
	s, err := m.resolve(nil)
	if err != nil {
		return err
	}
	l, err := m.connect(s)
	if err != nil {
		return err
	}
	defer l.close(m, "") // never cancels the session: attaching only looks
	// Ctrl-C detaches from here on, also while the log is replayed.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	if id, err = sessionByID(l.client, id); err != nil {
		return err
	}
	f := &follower{p: newPrinter(m.Stdout, asJSON), json: asJSON, finished: make(chan *messages.SessionFinishedData, 1)}
	sub, err := l.client.SubscribeRaw(messages.SessionEventsSubject(l.client.NS, id), f.event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	meta, entries, err := l.client.Log(id)
	if err != nil {
		return usageErr("attach %s: %v (see 'troupe sessions')", id, err)
	}
	running := meta.Status == string(messages.StatusRunning)
	if running {
		_, err := l.client.Status(id)
		running = err == nil
	}
	fmt.Fprintf(m.Stderr, "troupe: session %s · %s · %s\n", id, attachState(meta.Status, running), clipLine(meta.Task, 100))
	var printed replayed
	if !asJSON {
		printed = replayLog(m.Stdout, entries)
	}
	f.goLive(printed)
	if !running {
		select {
		case fin := <-f.finished: // it finished while we looked
			return outcome(fin)
		default:
		}
		if meta, _, err = l.client.Log(id); err != nil {
			return usageErr("attach %s: %v", id, err)
		}
		return storedOutcome(m, meta)
	}
	return m.followLive(ctx, l, id, f.finished, sigs)
}

func attachState(status string, running bool) string {
	switch {
	case running:
		return "running (Ctrl-C detaches; the session goes on)"
	case status == string(messages.StatusRunning):
		return "cut off"
	}
	return "finished: " + status
}

// followLive waits for the session to finish. Ctrl-C (or SIGTERM) detaches without touching
// the session.
func (m *Main) followLive(ctx context.Context, l *link, id string, finished <-chan *messages.SessionFinishedData, sigs <-chan os.Signal) error {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	detached := &exitError{code: exitInterrupted,
		msg: fmt.Sprintf("detached: session %s keeps running (troupe attach %s follows it again)", id, id)}
	for {
		select {
		case fin := <-finished:
			return outcome(fin)
		case <-sigs:
			fmt.Fprintln(m.Stderr)
			return detached
		case <-ctx.Done():
			return detached
		case <-tick.C:
			// Polls so a Node that died without a word does not leave us waiting forever.
			if !l.client.Alive() {
				return &exitError{code: exitFailed, msg: nodeGone(l.client, id)}
			}
		}
	}
}

// storedOutcome reports how a session that is no longer running ended, from its stored meta,
// with the exit code run would have given.
func storedOutcome(m *Main, meta *messages.SessionInfo) error {
	fin := &messages.SessionFinishedData{Status: messages.SessionStatus(meta.Status), Turns: meta.Turns}
	switch messages.SessionStatus(meta.Status) {
	case messages.StatusDone:
		fmt.Fprintf(m.Stderr, "troupe: session %s finished: done after %s\n", meta.ID, textfmt.Count(meta.Turns, "turn"))
	case messages.StatusFailed:
		fin.Error = fmt.Sprintf("after %s (troupe log %s shows why)", textfmt.Count(meta.Turns, "turn"), meta.ID)
	case messages.StatusRunning:
		fin.Status = messages.StatusInterrupted
		fin.Error = fmt.Sprintf("its node stopped without recording an outcome; troupe resume %s continues it", meta.ID)
	default: // interrupted, cancelled
		fin.Status = messages.StatusInterrupted
		fin.Error = fmt.Sprintf("%s after %s; troupe resume %s continues it", meta.Status, textfmt.Count(meta.Turns, "turn"), meta.ID)
	}
	return outcome(fin)
}

// sessionByID finds a stored session by its id or a unique suffix or prefix of it.
func sessionByID(c *actors.Client, id string) (string, error) {
	if strings.TrimSpace(id) == "" {
		return "", usageErr("no session id given (see 'troupe sessions')")
	}
	metas, err := c.Sessions()
	if err != nil {
		return "", err
	}
	var matches []string
	for _, meta := range metas {
		if meta.ID == id {
			return id, nil
		}
		if strings.HasSuffix(meta.ID, id) || strings.HasPrefix(meta.ID, id) {
			matches = append(matches, meta.ID)
		}
	}
	switch len(matches) {
	case 0:
		return "", usageErr("no session %s in this project (see 'troupe sessions')", id)
	case 1:
		return matches[0], nil
	}
	return "", usageErr("%s matches %d sessions (%s, …): give more of the id (see 'troupe sessions')", id, len(matches), matches[0])
}

// follower prints one session's events for attach. Until goLive, events are held back (the
// log is being replayed); then those the replay already covered are dropped and the rest
// printed as they come.
type follower struct {
	p        *printer
	json     bool
	finished chan *messages.SessionFinishedData

	mu      sync.Mutex
	live    bool
	held    [][]byte
	covered replayed
}

func (f *follower) event(data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.live {
		f.held = append(f.held, data)
		return
	}
	f.show(data)
}

// goLive prints the events held back, except what the replay already printed, and lets the
// next ones through as they come.
func (f *follower) goLive(printed replayed) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.covered = printed
	for _, data := range f.held {
		f.show(data)
	}
	f.held, f.live = nil, true
}

func (f *follower) show(data []byte) {
	if !f.json && f.covered.has(data) {
		return
	}
	if fin := f.p.event(data); fin != nil {
		select {
		case f.finished <- fin:
		default:
		}
	}
}

// replayed is what a log replay printed, to recognise the events that repeat it.
type replayed struct {
	started, results, denied map[string]bool // call ids
	lastAnswer               time.Time       // commit time of the last assistant entry
}

// has reports whether the replay already printed what the event says. Text is streamed
// before its entry is committed, so deltas up to the last committed answer are in the log;
// tool lines are matched by call id.
func (r replayed) has(data []byte) bool {
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

// replayLog prints a stored log as troupe run prints the live session: the answers, a line per
// tool call and its outcome, denials in full. It returns what it printed.
func replayLog(w io.Writer, entries []messages.LogEntry) replayed {
	r := replayed{started: map[string]bool{}, results: map[string]bool{}, denied: map[string]bool{}}
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
			return name + " " + clipRunes(firstLineOf(v), 120)
		}
	}
	return name
}
