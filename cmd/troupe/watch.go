package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/messages"
)

func (m *Main) watchCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "watch [session]",
		Short: "Follow every session and agent of this project live, from any terminal (Ctrl-C to stop)",
		Long: "Draws the live agent tree of this project's sessions: each agent's role, state, turns, tokens\n" +
			"and time, subagents under their parent. Piped, it prints one line per state change; with\n" +
			"--json, the raw event envelopes. A session id limits it to that session and its agents.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			session := ""
			if len(args) == 1 {
				session = args[0]
			}
			return m.watch(c.Context(), session, asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the raw event envelopes as NDJSON")
	return c
}

// watch subscribes to the project's events on the running Node and shows them. It waits for a
// Node to appear, and for the next one when it goes away, so it can be left open.
func (m *Main) watch(ctx context.Context, session string, asJSON bool) error {
	s, err := m.resolve(nil)
	if err != nil {
		return err
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	w := newWatcher(m.Stdout, session, asJSON, m.Getenv("TERM"))
	if w.view == viewTree {
		drawn := make(chan struct{})
		go func() { defer close(drawn); w.drawLoop(ctx) }()
		defer func() { stop(); <-drawn }()
	}
	say := func(msg string) {
		if w.view == viewTree {
			w.setStatus(msg)
		} else if !asJSON || strings.HasPrefix(msg, "waiting") {
			fmt.Fprintf(m.Stderr, "troupe: %s\n", msg)
		}
	}
	waiting := false
	for ctx.Err() == nil {
		info, err := actors.FindNode(s.root, s.cfg.NATS)
		if err != nil {
			if !waiting {
				say(fmt.Sprintf("waiting for a troupe node in %s (start one with troupe serve, run or chat)", s.root))
				waiting = true
			}
			sleepCtx(ctx, 200*time.Millisecond)
			continue
		}
		waiting = false
		if err := w.followNode(ctx, info, say); err != nil {
			return err
		}
	}
	return nil
}

// followNode shows the events of one Node until it goes away or ctx ends.
func (w *watcher) followNode(ctx context.Context, info *actors.NodeInfo, say func(string)) error {
	nc, err := actors.Dial(info.URL, info.Token, "troupe-watch")
	if err != nil {
		sleepCtx(ctx, 200*time.Millisecond) // it may be going away: look again
		return nil
	}
	client := actors.NewClient(nc, info.NS, info.Node)
	defer client.Close()
	subscribed := time.Now()
	sub, err := client.SubscribeRaw(messages.ProjectEventsSubject(info.NS), w.event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	say(fmt.Sprintf("watching node %s (pid %d)", info.Node, info.PID))
	if w.view != viewJSON {
		w.seed(client, subscribed)
	}
	for ctx.Err() == nil && client.Alive() && actors.ProcessAlive(info.PID) {
		sleepCtx(ctx, 200*time.Millisecond)
	}
	if !actors.ProcessAlive(info.PID) {
		w.nodeGone()
	}
	return nil
}

// watchView is how watch shows events.
type watchView int

const (
	viewJSON  watchView = iota // raw envelopes, one per line
	viewLines                  // one plain line per state change (piped output)
	viewTree                   // the tree, redrawn in place (a terminal)
)

// watcher holds the agent tree and shows it. Events arrive on the subscription's goroutine;
// the tree view is drawn by drawLoop; mu guards everything below it.
type watcher struct {
	view  watchView
	focus string
	out   *os.File // the terminal, for its size (tree view only)

	mu      sync.Mutex
	w       io.Writer
	tree    *agentTree
	printed map[string]string // lines view: the last line key printed per session
	status  string
	rate    eventRate
	dirty   bool
	drawn   int // lines of the last frame
	width   int // of the last frame
	loc     *time.Location
}

// maxAgents bounds the tree of a long-lived watch: older finished trees are forgotten.
const maxAgents = 2000

func newWatcher(w io.Writer, focus string, asJSON bool, term string) *watcher {
	wt := &watcher{view: viewLines, focus: focus, w: w, tree: newAgentTree(), printed: map[string]string{},
		status: "connecting…", loc: time.Local}
	if f, ok := w.(*os.File); ok && term != "dumb" {
		if _, _, ok := terminalSize(f); ok {
			wt.view, wt.out = viewTree, f
		}
	}
	if asJSON {
		wt.view = viewJSON
	}
	return wt
}

// terminalSize is the size of f if it is a terminal.
func terminalSize(f *os.File) (width, height int, ok bool) {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return 0, 0, false
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0, 0, false
	}
	width, height = int(ws.Col), int(ws.Row)
	if width <= 0 {
		width = 100
	}
	if height <= 0 {
		height = 30
	}
	return width, height, true
}

// stateEvents name a new state of an agent; the others only update or clear one, and do not
// get a line of their own in the lines view.
var stateEvents = map[messages.EventType]bool{
	messages.EventSessionStarted: true, messages.EventTurnStarted: true, messages.EventToolStarted: true,
	messages.EventToolApproval: true, messages.EventModelRetry: true, messages.EventSessionFinished: true,
	messages.EventAgentSpawned: true, messages.EventAgentFinished: true,
}

// event takes one raw envelope from the bus.
func (w *watcher) event(data []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rate.add(time.Now())
	if w.view == viewJSON && w.focus == "" {
		writeLine(w.w, data)
		return
	}
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil {
		return
	}
	a := w.tree.apply(&env)
	defer w.tree.forget(maxAgents)
	switch w.view {
	case viewJSON:
		if own := w.tree.agents[env.Session]; own != nil && w.tree.within(own, w.focus) {
			writeLine(w.w, data)
		}
	case viewLines:
		if stateEvents[env.Type] {
			w.line(a, env.TS)
		}
	case viewTree:
		w.dirty = true
	}
}

// line prints a's state in the lines view if it is new and worth a line.
func (w *watcher) line(a *agent, ts time.Time) {
	if a == nil || !w.tree.within(a, w.focus) || transient(a.State()) {
		return
	}
	if key := lineKey(a); w.printed[a.Session] != key {
		w.printed[a.Session] = key
		fmt.Fprintln(w.w, agentLine(w.tree, a, ts, w.loc))
	}
}

func writeLine(w io.Writer, data []byte) {
	w.Write(data)
	w.Write([]byte("\n"))
}

// seed adds the sessions that were running before watch subscribed, so an idle one shows too.
// Sessions created since then are left to their events, which all reach the subscription.
func (w *watcher) seed(c *actors.Client, subscribed time.Time) {
	metas, err := c.Sessions()
	if err != nil {
		return
	}
	asked := 0
	for _, meta := range metas {
		if meta.Status != string(messages.StatusRunning) || meta.Created.After(subscribed) || asked >= 64 {
			continue
		}
		asked++
		st, err := c.Status(meta.ID)
		if err != nil {
			continue // not running after all: its node died without recording an outcome
		}
		w.mu.Lock()
		if a := w.tree.seed(&meta, st); a != nil && w.view == viewLines {
			w.line(a, time.Now())
		}
		w.dirty = true
		w.mu.Unlock()
	}
}

func (w *watcher) setStatus(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.status, w.dirty = s, true
}

func (w *watcher) nodeGone() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	for _, a := range w.tree.nodeGone(now) {
		if w.view == viewLines {
			w.line(a, now)
		}
	}
	w.dirty = true
}

// drawLoop redraws the tree view at most ten times a second while events come in, and once a
// second regardless (elapsed times and the event rate move). It draws a last frame and returns
// when ctx ends.
func (w *watcher) drawLoop(ctx context.Context) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			w.draw(time.Now())
			return
		case now := <-tick.C:
			w.mu.Lock()
			due := w.dirty || now.Sub(last) >= time.Second
			w.mu.Unlock()
			if due {
				w.draw(now)
				last = now
			}
		}
	}
}

// draw rewrites the last frame in place: up to its first line, each line cleared and
// rewritten, the rest of the screen cleared. Lines never wrap (they are cut to the width), so
// the count of lines to go up is exact; after a resize the screen is cleared instead.
func (w *watcher) draw(now time.Time) {
	width, height, ok := terminalSize(w.out)
	if !ok {
		width, height = 100, 30
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	lines := renderFrame(w.tree, w.focus, frameHeader{status: w.status, rate: w.rate.perSecond(now)}, now, width-1, height)
	var b strings.Builder
	switch {
	case w.width != 0 && w.width != width:
		b.WriteString("\x1b[H\x1b[2J")
	case w.drawn > 0:
		fmt.Fprintf(&b, "\x1b[%dA\r", w.drawn)
	}
	for _, l := range lines {
		b.WriteString("\x1b[2K" + l + "\n")
	}
	b.WriteString("\x1b[J")
	io.WriteString(w.w, b.String())
	w.drawn, w.width, w.dirty = len(lines), width, false
}

// eventRate counts events per wall-clock second; perSecond is the last complete second's count.
type eventRate struct {
	sec       int64
	cur, prev int
}

func (r *eventRate) add(now time.Time) {
	r.roll(now.Unix())
	r.cur++
}

func (r *eventRate) perSecond(now time.Time) int {
	r.roll(now.Unix())
	return r.prev
}

func (r *eventRate) roll(sec int64) {
	switch {
	case sec == r.sec:
	case sec == r.sec+1:
		r.prev, r.cur, r.sec = r.cur, 0, sec
	default:
		r.prev, r.cur, r.sec = 0, 0, sec
	}
}

func shortID(id string) string {
	if i := strings.LastIndexByte(id, '-'); i >= 0 && len(id)-i > 1 {
		return id[i+1:]
	}
	return id
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
