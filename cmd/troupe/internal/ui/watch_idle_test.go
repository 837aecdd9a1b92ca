package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// lockedBuffer is written by the watcher's timers and read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func feed(w *Watcher, e *evs) {
	for _, env := range e.list {
		data, _ := json.Marshal(env)
		w.Event(data)
	}
}

// A chat's turn ends and the session waits for its user: the lines view says idle, rather
// than "thinking" until the next turn.
func TestWatchLinesShowAChatWaitingAsIdle(t *testing.T) {
	var out lockedBuffer
	w := NewWatcher(&out, "", false, "dumb")
	defer w.Close()
	feed(w, newEvs().
		at(0, rootS, messages.EventSessionStarted, started("", "chat")).
		at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
		at(2, rootS, messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1, Stop: "end"}))
	testwait.Until(t, 30*time.Second, func() bool { return strings.Contains(out.String(), "root - idle") },
		"an idle line after the chat's turn ended")
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); !strings.Contains(lines[len(lines)-1], "idle") {
		t.Errorf("the last line is not the idle one:\n%s", out.String())
	}
}

// A headless run ends right after its last turn: its idle line is called off, not printed
// between the thinking and the done lines.
func TestWatchLinesCallOffIdleWhenTheSessionEnds(t *testing.T) {
	var out lockedBuffer
	w := NewWatcher(&out, "", false, "dumb")
	defer w.Close()
	feed(w, newEvs().
		at(0, rootS, messages.EventSessionStarted, started("", "run")).
		at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
		at(2, rootS, messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1, Stop: "end"}).
		at(2, rootS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "done", Final: "ok", Turns: 1}))
	w.mu.Lock()
	due := len(w.idle)
	w.mu.Unlock()
	if due != 0 || strings.Contains(out.String(), "idle") || !strings.Contains(out.String(), "root - done") {
		t.Errorf("%d idle lines still due; output:\n%s", due, out.String())
	}
}
