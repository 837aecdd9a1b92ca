package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/troupe-dev/troupe/messages"
)

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

// A subagent's request opens the chat's dialog too, is answered in the subagent's session (call
// ids repeat across sessions), and closes when decided there.
func TestTUIApprovalDialogAnswersSubagents(t *testing.T) {
	h := newTUIHarness(t, 80, 24, true)
	h.typeText("delegate")
	h.key("enter")
	const child = "child-session"
	h.event(tuiSID, messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/tester", Session: child, Role: "tester", State: messages.AgentRunning})
	h.event(child, messages.EventToolApproval, &messages.ApprovalRequestedData{Turn: 1, CallID: "call_0_0", Reason: "ask mode asks before commands",
		Summary: messages.ApprovalSummary{Tool: "bash", Operation: "run", Command: "make test"}})
	if scr := h.screen(); !strings.Contains(scr, "root/tester: Allow bash (run)") || !strings.Contains(scr, "$ make test") {
		t.Fatalf("the subagent's request is not in the dialog:\n%s", scr)
	}
	h.key("y")
	if got := h.sess.got(); got[len(got)-1] != "approve "+child+" call_0_0 allow" {
		t.Errorf("answered as %v, want in the subagent's session", got)
	}
	// Decided elsewhere: a second request of the same call id in the child closes on its decision,
	// and the chat's own call_0_0 is not touched by it.
	h.event(child, messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "call_1_0", Summary: messages.ApprovalSummary{Tool: "bash"}})
	h.event(tuiSID, messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "call_1_0", Summary: messages.ApprovalSummary{Tool: "write_file"}})
	h.event(child, messages.EventToolRejected, &messages.DecisionData{CallID: "call_1_0", Tool: "bash", Decision: messages.DecisionDenied})
	if len(h.m.asks) != 1 || h.m.asks[0].session != tuiSID {
		t.Fatalf("after the child's decision the dialog holds %+v, want the chat's own request", h.m.asks)
	}
	// A session outside this chat's tree is not its to answer.
	h.event("stranger", messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "call_9", Summary: messages.ApprovalSummary{Tool: "bash"}})
	if len(h.m.asks) != 1 {
		t.Errorf("a stranger's request opened the dialog")
	}
}

// Ctrl-C never throws work away: it cancels a running turn (Esc too), clears the input when
// nothing runs, and only a second Ctrl-C in a row on an empty input leaves.
func TestTUICtrlC(t *testing.T) {
	cancels := func(h *tuiHarness) int {
		n := 0
		for _, c := range h.sess.got() {
			if c == "cancel "+tuiSID {
				n++
			}
		}
		return n
	}
	for _, key := range []string{"ctrl+c", "esc"} {
		t.Run(key+" cancels a running turn and keeps the draft", func(t *testing.T) {
			h := newTUIHarness(t, 80, 24, true)
			h.sess.phase = "thinking"
			h.typeText("go")
			h.key("enter")
			h.typeText("next idea")
			h.key(key)
			h.key(key)
			if h.quit {
				t.Fatalf("%s during a turn left", key)
			}
			if n := cancels(h); n != 1 {
				t.Fatalf("calls %v, want one cancel", h.sess.got())
			}
			if h.m.input.Value() != "next idea" {
				t.Errorf("the draft typed during the turn is %q", h.m.input.Value())
			}
			if !strings.Contains(h.screen(), "cancelling…") {
				t.Errorf("no sign of the cancel:\n%s", h.screen())
			}
			h.sess.phase = ""
			h.event(tuiSID, messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1, Stop: "cancelled"}) // idle again
			if h.m.busy || h.quit {
				t.Fatalf("busy %v, quit %v after the cancelled turn", h.m.busy, h.quit)
			}
		})
	}
	t.Run("with nothing running it clears the input, then a second one leaves", func(t *testing.T) {
		h := newTUIHarness(t, 80, 24, true)
		h.typeText("a draft")
		h.key("ctrl+c")
		if h.quit || h.m.input.Value() != "" {
			t.Fatalf("quit %v, input %q: want the input cleared", h.quit, h.m.input.Value())
		}
		h.key("ctrl+c")
		if h.quit || !strings.Contains(h.screen(), "Ctrl-C again leaves") {
			t.Fatalf("the first Ctrl-C on an empty input left, or said nothing:\n%s", h.screen())
		}
		h.key("ctrl+c")
		if !h.quit || len(h.sess.got()) != 0 {
			t.Fatalf("quit %v, calls %v", h.quit, h.sess.got())
		}
	})
	t.Run("any other key in between stays", func(t *testing.T) {
		h := newTUIHarness(t, 80, 24, true)
		h.key("ctrl+c")
		h.key("x")
		h.key("ctrl+c") // clears the x
		h.key("ctrl+c")
		if h.quit {
			t.Fatal("a Ctrl-C after another key left")
		}
		h.key("ctrl+c")
		if !h.quit {
			t.Fatal("two Ctrl-C in a row on an empty input did not leave")
		}
	})
	t.Run("Esc in the approval dialog answers no, not a cancel", func(t *testing.T) {
		h := newTUIHarness(t, 80, 24, true)
		h.sess.phase = "thinking"
		h.typeText("go")
		h.key("enter")
		h.event(tuiSID, messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "call_1", Summary: messages.ApprovalSummary{Tool: "bash", Command: "ls"}})
		h.key("esc")
		if got := h.sess.got(); len(got) != 2 || got[1] != "approve "+tuiSID+" call_1 deny" {
			t.Fatalf("calls %v, want the input then a denial", got)
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
	t.Run("Ctrl-D does not leave a running turn or a draft", func(t *testing.T) {
		h := newTUIHarness(t, 80, 24, true)
		h.typeText("draft")
		h.key("ctrl+d")
		h.sess.phase = "thinking"
		h.key("enter")
		h.key("ctrl+d")
		if h.quit {
			t.Fatal("Ctrl-D left with a draft or a running turn")
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
	// /mode is the session's command like any other; the status line follows from the
	// status the TUI asks for after a command's answer.
	h.typeText("/mode yolo")
	h.key("enter")
	if got := h.sess.got(); got[len(got)-1] != "input "+tuiSID+` "/mode yolo"` || h.m.cfg.mode != "yolo" {
		t.Errorf("calls %v, mode %q", got, h.m.cfg.mode)
	}
	// The session's RoutedExit is a leave, as the local /exit is.
	h.sess.route = messages.RoutedExit
	h.typeText("/exit now")
	h.key("enter")
	if !h.m.quitting {
		t.Error("the TUI did not leave on the session's exit answer")
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
