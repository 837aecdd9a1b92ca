package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/troupe-dev/troupe/messages"
)

// watchView is how watch shows events.
type watchView int

const (
	viewJSON  watchView = iota // raw envelopes, one per line
	viewLines                  // one plain line per state change (piped output)
	viewTree                   // the tree, redrawn in place (a terminal)
)

// Watcher holds the agent tree and shows it. Events arrive on the subscription's goroutine;
// the tree view is drawn by DrawLoop; mu guards everything below it.
type Watcher struct {
	view  watchView
	focus string
	out   *os.File // the terminal, for its size (tree view only)

	mu      sync.Mutex
	w       io.Writer
	tree    *agentTree
	printed map[string]string      // lines view: the last line key printed per session
	idle    map[string]*time.Timer // lines view: sessions whose idle line is due (see idleAfter)
	closed  bool
	status  string
	rate    eventRate
	dirty   bool
	drawn   int // lines of the last frame
	width   int // of the last frame
	loc     *time.Location
}

// Tree reports whether w draws the tree in place (a terminal): the caller runs DrawLoop.
func (w *Watcher) Tree() bool { return w.view == viewTree }

// JSON reports whether w prints the raw envelopes.
func (w *Watcher) JSON() bool { return w.view == viewJSON }

// maxAgents bounds the tree of a long-lived watch: older finished trees are forgotten.
const maxAgents = 2000

func NewWatcher(w io.Writer, focus string, asJSON bool, term string) *Watcher {
	wt := &Watcher{view: viewLines, focus: focus, w: w, tree: newAgentTree(), printed: map[string]string{},
		idle: map[string]*time.Timer{}, status: "connecting…", loc: time.Local}
	if f, ok := w.(*os.File); ok && term != "dumb" {
		if _, _, ok := TerminalSize(f); ok {
			wt.view, wt.out = viewTree, f
		}
	}
	if asJSON {
		wt.view = viewJSON
	}
	return wt
}

// WriterTerminal is w's width when w is a terminal (an *os.File that is one).
func WriterTerminal(w io.Writer) (int, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, false
	}
	width, _, tty := TerminalSize(f)
	return width, tty
}

// TerminalSize is the size of f if it is a terminal.
func TerminalSize(f *os.File) (width, height int, ok bool) {
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

// Event takes one raw envelope from the bus.
func (w *Watcher) Event(data []byte) {
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
		w.idleLater(a)
	case viewTree:
		w.dirty = true
	}
}

// idleAfter is how long an agent stays idle after a turn before the lines view says so: a
// headless run ends a moment after its last turn, while a chat waits there for its user, and
// a watcher must not go on saying "thinking" (the tree view shows idle as it is).
const idleAfter = time.Second

// idleLater schedules a's idle line once its turn ended with no calls, and calls off one that
// is due while a moved on (a next turn, the session's end).
func (w *Watcher) idleLater(a *agent) {
	if a == nil {
		return
	}
	if t := w.idle[a.Session]; t != nil {
		t.Stop()
		delete(w.idle, a.Session)
	}
	if w.closed || a.State() != phaseIdle {
		return
	}
	session := a.Session
	var t *time.Timer
	t = time.AfterFunc(idleAfter, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.idle[session] != t {
			return // called off, or replaced, while this one fired
		}
		delete(w.idle, session)
		if a := w.tree.agents[session]; a != nil && a.State() == phaseIdle {
			w.show(a, time.Now())
		}
	})
	w.idle[session] = t
}

// Close calls off the idle lines still due; the watcher prints nothing after it.
func (w *Watcher) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	for s, t := range w.idle {
		t.Stop()
		delete(w.idle, s)
	}
}

// line prints a's state in the lines view if it is new and worth a line.
func (w *Watcher) line(a *agent, ts time.Time) {
	if a == nil || transient(a.State()) {
		return
	}
	w.show(a, ts)
}

// show prints a's state in the lines view if it is new.
func (w *Watcher) show(a *agent, ts time.Time) {
	if a == nil || !w.tree.within(a, w.focus) {
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

// Seed adds the sessions that were running before watch subscribed, so an idle one shows too.
// Sessions created since then are left to their events, which all reach the subscription.
func (w *Watcher) Seed(c SessionSource, subscribed time.Time) {
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
			w.show(a, time.Now()) // an idle chat shows as idle: it stays so until its user types
		}
		w.dirty = true
		w.mu.Unlock()
	}
}

// Say tells the person how watching goes (waiting for a node, watching one): in the tree's
// status line, or as a line on stderr (with --json only the waiting).
func (w *Watcher) Say(stderr io.Writer, msg string) {
	if w.view == viewTree {
		w.SetStatus(msg)
	} else if w.view != viewJSON || strings.HasPrefix(msg, "waiting") {
		fmt.Fprintf(stderr, "troupe: %s\n", msg)
	}
}

// SetStatus sets the tree's status line.
func (w *Watcher) SetStatus(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.status, w.dirty = s, true
}

func (w *Watcher) NodeGone() {
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

// DrawLoop redraws the tree view at most ten times a second while events come in, and once a
// second regardless (elapsed times and the event rate move). It draws a last frame and returns
// when ctx ends.
func (w *Watcher) DrawLoop(ctx context.Context) {
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
func (w *Watcher) draw(now time.Time) {
	width, height, ok := TerminalSize(w.out)
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

// ShortID is the random tail of a session id: what the agent tree and the lines view show.
func ShortID(id string) string {
	if i := strings.LastIndexByte(id, '-'); i >= 0 && len(id)-i > 1 {
		return id[i+1:]
	}
	return id
}
