package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/troupe-dev/troupe/messages"
)

// fakeSession records the calls the TUI makes and answers them like an idle session.
type fakeSession struct {
	mu    sync.Mutex
	calls []string
	route string // what Input answers (default: the model takes it)
	out   string
	phase string
}

func (f *fakeSession) record(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf(format, args...))
}

func (f *fakeSession) Input(session, text string) (*messages.InputAck, error) {
	f.record("input %s %q", session, text)
	route := f.route
	if route == "" {
		route = messages.RoutedModel
	}
	return &messages.InputAck{Routed: route, Output: f.out}, nil
}

func (f *fakeSession) Cancel(session, reason string) error {
	f.record("cancel %s", session)
	return nil
}

func (f *fakeSession) Approve(session, callID, answer, by string) error {
	f.record("approve %s %s %s", session, callID, answer)
	return nil
}

func (f *fakeSession) Status(session string) (*messages.StatusReply, error) {
	phase := f.phase
	if phase == "" {
		phase = phaseIdle
	}
	return &messages.StatusReply{Session: session, Phase: phase, Model: "scripted", Mode: "ask", ContextTokens: 1200, ContextWindow: 8000}, nil
}

func (f *fakeSession) SetMode(session, mode string) (*messages.StatusReply, error) {
	f.record("mode %s %s", session, mode)
	return &messages.StatusReply{Session: session, Phase: phaseIdle, Model: "scripted", Mode: mode}, nil
}

func (f *fakeSession) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

const tuiSID = "20260101-120000-abc123"

// tuiHarness drives the model with messages, as the Bubble Tea program would, at a fixed time.
type tuiHarness struct {
	t    *testing.T
	m    *tuiModel
	sess *fakeSession
	seq  uint64
	quit bool
	now  time.Time // the clock the model reads; tests move it
}

func newTUIHarness(t *testing.T, width, height int, noColor bool) *tuiHarness {
	t.Helper()
	h := &tuiHarness{t: t, sess: &fakeSession{}, now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	h.m = newTUIModel(tuiConfig{session: h.sess, id: tuiSID, model: "scripted", mode: "ask", noColor: noColor,
		now: func() time.Time { return h.now }})
	h.send(tea.WindowSizeMsg{Width: width, Height: height})
	return h
}

// send feeds one message and runs the command it returns (never a tick, which would wait).
func (h *tuiHarness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *tuiHarness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.QuitMsg:
		h.quit = true
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tickMsg:
	default:
		h.send(msg)
	}
}

// event feeds an envelope of this session (or of another one: who).
func (h *tuiHarness) event(who string, typ messages.EventType, data any) {
	h.t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		h.t.Fatal(err)
	}
	h.seq++
	h.send(eventMsg{env: &messages.Envelope{V: 1, Seq: h.seq, TS: time.Date(2026, 1, 1, 12, 0, int(h.seq), 0, time.UTC),
		Session: who, Type: typ, Data: raw}})
}

func (h *tuiHarness) key(k string) {
	var msg tea.KeyPressMsg
	switch k {
	case "enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "alt+enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	case "pgup":
		msg = tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		msg = tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "alt+up":
		msg = tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}
	case "alt+down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModAlt}
	case "up":
		msg = tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown}
	case "right":
		msg = tea.KeyPressMsg{Code: tea.KeyRight}
	case "ctrl+c", "ctrl+d", "ctrl+o", "ctrl+t":
		msg = tea.KeyPressMsg{Code: rune(k[len(k)-1]), Mod: tea.ModCtrl}
	default:
		msg = tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
	}
	h.send(msg)
}

func (h *tuiHarness) typeText(s string) {
	for _, r := range s {
		h.key(string(r))
	}
}

// screen is the view without escape sequences, trailing spaces cut.
func (h *tuiHarness) screen() string {
	lines := strings.Split(ansi.Strip(h.m.View().Content), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// aTurn is one turn of a session: reasoning, a streamed answer, a tool call and its result.
func aTurn(h *tuiHarness) {
	h.event(tuiSID, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1})
	h.event(tuiSID, messages.EventReasoningDelta, &messages.DeltaData{Turn: 1, Text: "The user wants a listing."})
	h.event(tuiSID, messages.EventTextDelta, &messages.DeltaData{Turn: 1, Text: "Looking at the "})
	h.event(tuiSID, messages.EventTextDelta, &messages.DeltaData{Turn: 1, Text: "**files**."})
	h.event(tuiSID, messages.EventToolStarted, &messages.ToolCallData{Turn: 1, CallID: "call_1", Tool: "bash", Summary: "bash ls"})
	h.event(tuiSID, messages.EventToolFinished, &messages.ToolFinishedData{Turn: 1, CallID: "call_1", Tool: "bash",
		Output: "README.md\nmain.go\n", Bytes: 18, DurationMS: 12})
	h.event(tuiSID, messages.EventUsage, &messages.UsageData{Turn: 1, TotalInputTokens: 1500, TotalOutputTokens: 40})
	h.event(tuiSID, messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1, Stop: "tool_calls"})
}

func TestTUIConversationGolden(t *testing.T) {
	h := newTUIHarness(t, 80, 24, true)
	h.typeText("list the files")
	h.key("enter")
	h.now = h.now.Add(1500 * time.Millisecond)
	aTurn(h)
	h.event(tuiSID, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 2})
	h.event(tuiSID, messages.EventTextDelta, &messages.DeltaData{Turn: 2, Text: "# Files\n\n- `README.md`\n- `main"})
	golden(t, "tui/streaming.golden", h.screen())

	h.event(tuiSID, messages.EventTextDelta, &messages.DeltaData{Turn: 2, Text: ".go`\n"})
	h.event(tuiSID, messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 2, Stop: "end"})
	h.key("ctrl+o") // the last tool call shows its output
	golden(t, "tui/answered.golden", h.screen())
	if h.m.busy {
		t.Error("still busy after the turn ended and the session said it is idle")
	}
	h.send(tea.WindowSizeMsg{Width: 80, Height: 12})
	h.key("pgup")
	if scr := h.screen(); !strings.Contains(scr, "more lines (PgDn)") || !strings.Contains(scr, "› list the files") || strings.Contains(scr, "• main.go") {
		t.Errorf("PgUp does not scroll back:\n%s", scr)
	}
	h.key("pgdown")
	if scr := h.screen(); strings.Contains(scr, "more lines") || !strings.Contains(scr, "• main.go") {
		t.Errorf("PgDn does not come back to the newest:\n%s", scr)
	}
}

func TestTUIExpandsThePickedToolCall(t *testing.T) {
	h := newTUIHarness(t, 80, 24, true)
	aTurn(h) // call_1: bash ls
	h.event(tuiSID, messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "call_2",
		Summary: messages.ApprovalSummary{Tool: "edit_file", Path: "main.go", Diff: "--- a/main.go\n+++ b/main.go\n-old\n+new\n"}})
	h.key("y")
	h.event(tuiSID, messages.EventToolStarted, &messages.ToolCallData{CallID: "call_2", Tool: "edit_file", Summary: "edit_file main.go"})
	h.event(tuiSID, messages.EventToolFinished, &messages.ToolFinishedData{CallID: "call_2", Tool: "edit_file", Output: "edited main.go", Bytes: 14})
	h.key("ctrl+o") // the newest: its diff, not its output
	if scr := h.screen(); !strings.Contains(scr, "│ +new") || strings.Contains(scr, "│ main.go") {
		t.Fatalf("Ctrl-O does not show the newest call's diff alone:\n%s", scr)
	}
	h.key("alt+up") // pick the older call, and expand it too
	h.key("ctrl+o")
	scr := h.screen()
	if !strings.Contains(scr, "▸ bash ls") || !strings.Contains(scr, "│ main.go") || !strings.Contains(scr, "│ +new") {
		t.Fatalf("the picked call is not marked and expanded:\n%s", scr)
	}
	h.key("alt+down") // back to the newest, which Ctrl-O folds
	h.key("ctrl+o")
	if scr := h.screen(); !strings.Contains(scr, "▸ edit_file") || strings.Contains(scr, "│ +new") || !strings.Contains(scr, "│ main.go") {
		t.Fatalf("after Alt-Down, Ctrl-O should fold the newest call:\n%s", scr)
	}
	h.key("alt+down") // past the newest: no pick, Ctrl-O follows the newest again
	if scr := h.screen(); strings.Contains(scr, "▸") || h.m.selectedTool() != h.m.log.lastTool() {
		t.Fatalf("a pick is left past the newest:\n%s", scr)
	}
}

func TestTUIApprovalDialog(t *testing.T) {
	h := newTUIHarness(t, 80, 24, true)
	h.typeText("run the tests")
	h.key("enter")
	ask := func(call string) {
		h.event(tuiSID, messages.EventToolApproval, &messages.ApprovalRequestedData{Turn: 1, CallID: call, Reason: "ask mode asks before commands",
			Summary: messages.ApprovalSummary{Tool: "bash", Operation: "run", Command: "go test ./... -run " + call}})
	}
	ask("call_1")
	h.now = h.now.Add(65 * time.Second)
	scr := h.screen()
	for _, want := range []string{"Allow bash (run)", "$ go test ./... -run call_1", "[y] allow", "[n] deny", "[a] allow for this session"} {
		if !strings.Contains(scr, want) {
			t.Errorf("dialog lacks %q:\n%s", want, scr)
		}
	}
	golden(t, "tui/approval.golden", scr)
	h.key("a")
	ask("call_2")
	h.key("right") // deny is selected
	h.key("enter")
	ask("call_3")
	h.key("y")
	want := []string{`input ` + tuiSID + ` "run the tests"`, "approve " + tuiSID + " call_1 allow-session",
		"approve " + tuiSID + " call_2 deny", "approve " + tuiSID + " call_3 allow"}
	if got := h.sess.got(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Answered elsewhere: the dialog closes without a call from here.
	ask("call_4")
	h.event(tuiSID, messages.EventToolDecision, &messages.DecisionData{CallID: "call_4", Tool: "bash", Decision: messages.DecisionAllowed, By: "cli"})
	if scr := h.screen(); strings.Contains(scr, "Allow bash") || !strings.Contains(scr, "approval of call_4 answered: allowed") {
		t.Errorf("an approval answered elsewhere left the dialog open:\n%s", scr)
	}
	if n := len(h.sess.got()); n != 4 {
		t.Errorf("%d calls, want 4: %v", n, h.sess.got())
	}
	// Another session's request is not this chat's to answer.
	h.event("other-session", messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "call_9", Summary: messages.ApprovalSummary{Tool: "bash"}})
	if len(h.m.asks) != 0 {
		t.Errorf("a request of another session opened the dialog")
	}
}

func TestTUICtrlC(t *testing.T) {
	t.Run("cancels a running turn, then leaves", func(t *testing.T) {
		h := newTUIHarness(t, 80, 24, true)
		h.sess.phase = "thinking"
		h.typeText("go")
		h.key("enter")
		h.key("ctrl+c")
		if h.quit {
			t.Fatal("the first Ctrl-C during a turn left")
		}
		if got := h.sess.got(); len(got) != 2 || got[1] != "cancel "+tuiSID {
			t.Fatalf("calls %v, want the input then a cancel", got)
		}
		if !strings.Contains(h.screen(), "Ctrl-C again leaves") {
			t.Errorf("no hint that a second Ctrl-C leaves:\n%s", h.screen())
		}
		h.key("ctrl+c")
		if !h.quit {
			t.Fatal("the second Ctrl-C did not leave")
		}
	})
	t.Run("leaves when idle", func(t *testing.T) {
		h := newTUIHarness(t, 80, 24, true)
		h.key("ctrl+c")
		if !h.quit || len(h.sess.got()) != 0 {
			t.Fatalf("quit %v, calls %v", h.quit, h.sess.got())
		}
	})
	t.Run("a new turn needs two again", func(t *testing.T) {
		h := newTUIHarness(t, 80, 24, true)
		h.typeText("go")
		h.key("enter")
		h.key("ctrl+c")
		h.event(tuiSID, messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1, Stop: "cancelled"}) // idle again
		h.sess.phase = "thinking"
		h.typeText("again")
		h.key("enter")
		h.key("ctrl+c")
		if h.quit {
			t.Fatal("one Ctrl-C in a new turn left")
		}
	})
	t.Run("Ctrl-D and /exit leave", func(t *testing.T) {
		for _, leave := range []func(h *tuiHarness){
			func(h *tuiHarness) { h.key("ctrl+d") },
			func(h *tuiHarness) { h.typeText("/exit"); h.key("enter") },
		} {
			h := newTUIHarness(t, 80, 24, true)
			leave(h)
			if !h.quit || len(h.sess.got()) != 0 {
				t.Errorf("quit %v, calls %v", h.quit, h.sess.got())
			}
		}
	})
}

func TestTUIHistoryAndMultiLine(t *testing.T) {
	h := newTUIHarness(t, 80, 24, true)
	h.typeText("first")
	h.key("enter")
	h.typeText("second")
	h.key("alt+enter")
	h.typeText("line")
	h.key("enter")
	if got := h.sess.got(); len(got) != 2 || got[1] != `input `+tuiSID+` "second\nline"` {
		t.Fatalf("calls %q", got)
	}
	h.typeText("draft")
	steps := []struct{ key, want string }{
		{"up", "second\nline"}, // the cursor lands on the last line of a multi-line entry
		{"up", "second\nline"}, // up within it first
		{"up", "first"},
		{"up", "first"},          // the oldest stays
		{"down", "second\nline"}, // the cursor lands at its end: down goes on
		{"down", "draft"},        // past the newest: what was being typed
	}
	for i, s := range steps {
		h.key(s.key)
		if got := h.m.input.Value(); got != s.want {
			t.Fatalf("step %d (%s): input %q, want %q", i, s.key, got, s.want)
		}
	}
}

func TestTUISlashCommands(t *testing.T) {
	h := newTUIHarness(t, 80, 24, true)
	h.sess.route, h.sess.out = messages.RoutedCommand, "commands: /help /status /exit\n"
	h.typeText("/help")
	h.key("enter")
	if !strings.Contains(h.screen(), "commands: /help /status /exit") {
		t.Errorf("a command's answer is not shown:\n%s", h.screen())
	}
	if h.m.busy {
		t.Error("a local command started a turn")
	}
	h.typeText("/mode yolo")
	h.key("enter")
	if got := h.sess.got(); got[len(got)-1] != "mode "+tuiSID+" yolo" || h.m.cfg.mode != "yolo" {
		t.Errorf("calls %v, mode %q", got, h.m.cfg.mode)
	}
}

func TestTUINoColorAndNarrow(t *testing.T) {
	for _, noColor := range []bool{true, false} {
		h := newTUIHarness(t, 80, 24, noColor)
		h.typeText("hi")
		h.key("enter")
		aTurn(h)
		if got := hasColour(h.m.View().Content); got == noColor {
			t.Errorf("NO_COLOR %v: colours in the view: %v", noColor, got)
		}
	}
	h := newTUIHarness(t, 24, 12, true)
	h.typeText("a rather long request that wraps")
	h.key("enter")
	aTurn(h)
	h.event(tuiSID, messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "call_2",
		Summary: messages.ApprovalSummary{Tool: "bash", Command: "rm -rf build && make all install"}})
	h.key("ctrl+t")
	scr := h.screen()
	for i, l := range strings.Split(scr, "\n") {
		if w := ansi.StringWidth(l); w > 24 {
			t.Errorf("line %d is %d wide on a 24-column terminal: %q", i, w, l)
		}
	}
	if n := strings.Count(scr, "\n"); n > 12 {
		t.Errorf("%d lines on a 12-line terminal:\n%s", n, scr)
	}
	if !strings.Contains(scr, "[y] allow") {
		t.Errorf("the dialog's answers do not show on a narrow terminal:\n%s", scr)
	}
}

// hasColour finds an SGR sequence that sets a foreground or background colour.
func hasColour(s string) bool {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		params := strings.Split(m[1], ":")[0]
		for _, p := range strings.Split(params, ";") {
			n, err := strconv.Atoi(p)
			if err == nil && (n >= 30 && n <= 38 || n >= 40 && n <= 48 || n >= 90 && n <= 97 || n >= 100 && n <= 107) {
				return true
			}
		}
	}
	return false
}

var sgr = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

func TestTUIOnlyOnATerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	m := &Main{Stdin: r, Stdout: w, Getenv: func(string) string { return "xterm-256color" }}
	if m.onTerminal() {
		t.Error("pipes were taken for a terminal: the line chat must serve them")
	}
}
