package ui

import (
	"encoding/json"
	"fmt"
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
	route messages.Route // what Input answers (default: the model takes it)
	out   string
	phase messages.Phase
	mode  messages.Mode // what /mode last set, as the session would
}

func (f *fakeSession) record(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf(format, args...))
}

func (f *fakeSession) Input(session, text string) (*messages.InputAck, error) {
	f.record("input %s %q", session, text)
	if mode, ok := strings.CutPrefix(text, "/mode "); ok {
		f.mu.Lock()
		f.mode = messages.Mode(mode)
		f.mu.Unlock()
	}
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

func (f *fakeSession) Approve(session, callID string, answer messages.Answer, by string) error {
	f.record("approve %s %s %s", session, callID, answer)
	return nil
}

func (f *fakeSession) Status(session string) (*messages.StatusReply, error) {
	phase := f.phase
	if phase == "" {
		phase = messages.PhaseIdle
	}
	f.mu.Lock()
	mode := f.mode
	f.mu.Unlock()
	if mode == "" {
		mode = messages.ModeAsk
	}
	return &messages.StatusReply{Session: session, Phase: phase, Model: "scripted", Mode: mode, ContextTokens: 1200, ContextWindow: 8000}, nil
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
	case "esc":
		msg = tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		msg = tea.KeyPressMsg{Code: tea.KeyTab}
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
