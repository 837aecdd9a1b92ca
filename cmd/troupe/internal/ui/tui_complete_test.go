package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestTUITabCompletesAndCtrlCDropsACompletionInFlight(t *testing.T) {
	h := newTUIHarness(t, 80, 24, true)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.m.cfg.complete = Completer{Root: root, Commands: []Command{{Name: "model", Args: []string{"openai/gpt-4o", "openai/gpt-5"}}, {Name: "mode"}}}

	h.typeText("/model ")
	h.key("tab")
	if scr := h.screen(); !strings.Contains(scr, "openai/gpt-4o  openai/gpt-5") || h.m.input.Value() != "/model openai/gpt-" {
		t.Fatalf("/model <Tab> does not list the models (input %q):\n%s", h.m.input.Value(), scr)
	}
	h.typeText("5")
	if strings.Contains(h.screen(), "openai/gpt-4o  openai/gpt-5") {
		t.Error("the candidates stay after the next key")
	}
	h.key("ctrl+c") // clears the input
	h.typeText("read @no")
	h.key("tab")
	if h.m.input.Value() != "read @notes.md " {
		t.Fatalf("@path Tab gives %q", h.m.input.Value())
	}
	h.key("ctrl+c")
	h.typeText("read @zz")
	h.key("tab")
	if !strings.Contains(h.screen(), "no file or folder matches @zz") {
		t.Errorf("a Tab with nothing to complete says nothing:\n%s", h.screen())
	}

	// Ctrl-C while a completion is on its way: the input is cleared and the late completion
	// does not bring it back.
	h.key("ctrl+c")
	h.typeText("/mo")
	pending := h.m.complete()
	h.key("ctrl+c")
	h.send(pending())
	if v := h.m.input.Value(); v != "" {
		t.Fatalf("a completion that arrived after Ctrl-C refilled the input: %q", v)
	}
	if h.quit {
		t.Fatal("the chat left")
	}
}

// A quick !command can finish before the session's answer to the line arrives: the spinner
// still stops once the session says it is idle.
func TestTUIShellAnswerAfterItsEndLeavesNoSpinner(t *testing.T) {
	h := newTUIHarness(t, 80, 24, true)
	h.sess.route = messages.RoutedShell
	h.sess.phase = messages.PhaseExecuting
	h.typeText("!sleep 1")
	h.key("enter")
	if !h.m.busy {
		t.Fatal("not busy while the command runs")
	}
	h.sess.phase = messages.PhaseIdle
	h.event(tuiSID, messages.EventToolFinished, &messages.ToolFinishedData{CallID: messages.UserCallPrefix + "1-1", Tool: "bash", Output: "done\n[exit code 0]\n", Bytes: 20})
	if h.m.busy {
		t.Fatal("still busy after the command ended and the session is idle")
	}
	if scr := h.screen(); !strings.Contains(scr, "│ done") {
		t.Errorf("the command's output is not shown:\n%s", scr)
	}
	h.send(ackMsg{ack: &messages.InputAck{Routed: messages.RoutedShell}}) // late
	if h.m.busy {
		t.Fatal("a late answer left the spinner running")
	}
}
