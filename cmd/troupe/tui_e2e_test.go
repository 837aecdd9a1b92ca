package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// tmuxTerm is a private tmux server with one window running a command: a real terminal for the
// TUI, read back with capture-pane.
type tmuxTerm struct {
	t    *testing.T
	sock string
}

func startTmux(t *testing.T, dir string, width, height int, command string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the terminal UI end-to-end test needs it to drive a real terminal")
	}
	tm := &tmuxTerm{t: t, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	tm.run("new-session", "-d", "-s", "tui", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-c", dir, command)
	t.Cleanup(func() { exec.Command("tmux", "-S", tm.sock, "kill-server").Run() })
	return tm
}

func (tm *tmuxTerm) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (tm *tmuxTerm) screen() string { return tm.run("capture-pane", "-p", "-t", "tui") }

// keys sends tmux key names (Enter, C-c) or, with literal, text as typed.
func (tm *tmuxTerm) keys(literal bool, keys ...string) {
	tm.t.Helper()
	args := []string{"send-keys", "-t", "tui"}
	if literal {
		args = append(args, "-l")
	}
	tm.run(append(args, keys...)...)
}

// waitFor polls the screen until it shows want.
func (tm *tmuxTerm) waitFor(want string, d time.Duration) string {
	tm.t.Helper()
	var scr string
	testwait.For(tm.t, d, func() error {
		if scr = tm.screen(); !strings.Contains(scr, want) {
			return fmt.Errorf("the screen does not show %q:\n%s", want, scr)
		}
		return nil
	})
	return scr
}

// troupeShell is a shell command running the test binary in the test environment on a colour
// terminal (NO_COLOR stays set), then saying how it exited and staying open to be read.
func troupeShell(t *testing.T, extraEnv []string, args ...string) string {
	var env []string
	for _, kv := range testEnv(t, append([]string{"TERM=xterm-256color"}, extraEnv...)...) {
		if kv != "TERM=dumb" {
			env = append(env, shellQuote(kv))
		}
	}
	quoted := []string{shellQuote(troupeBin)}
	for _, a := range args {
		quoted = append(quoted, shellQuote(a))
	}
	return fmt.Sprintf("env -i %s %s; echo \"troupe exited $?\"; sleep 600", strings.Join(env, " "), strings.Join(quoted, " "))
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestTUIEndToEndUnderTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the terminal UI end-to-end test needs it to drive a real terminal")
	}
	repo := newRepo(t, nil)
	model := writeScript(t, repo, approveScript)
	tm := startTmux(t, repo, 100, 30, troupeShell(t, nil, "chat", "--model", model, "--mode", "ask", "--sandbox", "off"))

	tm.waitFor("Enter sends", 30*time.Second)
	tm.keys(true, "write the note")
	tm.keys(false, "Enter")
	scr := tm.waitFor("Allow write_file (create) note.txt", 30*time.Second)
	for _, want := range []string{"› write the note", "[y] allow", "[a] allow for this session", "mode ask"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the approval screen lacks %q:\n%s", want, scr)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "note.txt")); !os.IsNotExist(err) {
		t.Fatal("note.txt was written before the approval")
	}
	tm.keys(false, "y")
	testwait.Until(t, 30*time.Second, func() bool {
		data, _ := os.ReadFile(filepath.Join(repo, "note.txt"))
		return string(data) == "approved\n"
	}, "note.txt to hold the approved content")
	testwait.For(t, 30*time.Second, func() error { // the model's answer, on a line of its own
		if scr = tm.screen(); !strings.Contains(scr, "✓ created note.txt") || !hasLine(scr, "written") || strings.Contains(scr, "thinking…") {
			return fmt.Errorf("no answer yet:\n%s", scr)
		}
		return nil
	})
	if strings.Contains(scr, "Allow write_file") {
		t.Errorf("the dialog stayed open after the answer:\n%s", scr)
	}
	t.Logf("the screen after the turn:\n%s", scr)
	tm.keys(false, "C-c") // idle, empty input: the first Ctrl-C only says the next one leaves
	tm.waitFor("Ctrl-C again leaves", 30*time.Second)
	tm.keys(false, "C-c")
	tm.waitFor("troupe exited 0", 30*time.Second)
}

func hasLine(screen, want string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}

// troupe alone opens the chat on a terminal, and prints its help when piped (as it always did).
func TestTUITroupeAlone(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, approveScript)
	if r := troupe(t, repo, testEnv(t, "TROUPE_MODEL="+model)); r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
		t.Errorf("troupe piped: exit %d, stdout:\n%s%s", r.code, r.stdout, r.stderr)
	}
	tm := startTmux(t, repo, 80, 24, troupeShell(t, []string{"TROUPE_MODEL=" + model}))
	tm.waitFor("Enter sends", 30*time.Second)
	tm.keys(false, "C-d")
	scr := tm.waitFor("troupe exited 0", 30*time.Second)
	if !strings.Contains(scr, "troupe: left session") {
		t.Errorf("leaving does not say which session it was:\n%s", scr)
	}
	if !strings.Contains(scr, "(resume with: troupe resume ") {
		t.Errorf("leaving does not say how to come back:\n%s", scr)
	}
}

// Ctrl-C never throws work away: during a running tool it cancels the turn and the chat goes
// on (Esc does the same); with nothing running it clears the input; only a second Ctrl-C in a
// row on an empty input leaves.
func TestTUICtrlCCancelsARunningTurnUnderTmux(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [
	{"tool_calls": [{"name": "bash", "args": {"command": "sleep 30"}}]},
	{"tool_calls": [{"name": "bash", "args": {"command": "sleep 31"}}]},
	{"text": "never reached"}]}`)
	tm := startTmux(t, repo, 100, 30, troupeShell(t, nil, "chat", "--model", model, "--mode", "yolo", "--sandbox", "off"))
	tm.waitFor("Enter sends", 30*time.Second)
	cancelled := func(key, prompt, tool string, done int) {
		t.Helper()
		tm.keys(true, prompt)
		tm.keys(false, "Enter")
		tm.waitFor("tool "+tool+"…", 30*time.Second)
		tm.keys(false, key)
		testwait.For(t, 30*time.Second, func() error { // the tool is killed, the turn over, the chat idle
			scr := tm.screen()
			if strings.Count(scr, "✗") < done || strings.Contains(scr, "cancels") || strings.Contains(scr, "cancelling…") {
				return fmt.Errorf("the turn still runs after %s:\n%s", key, scr)
			}
			return nil
		})
		if scr := tm.screen(); strings.Contains(scr, "troupe exited") || strings.Contains(scr, "never reached") {
			t.Fatalf("%s should only cancel the turn:\n%s", key, scr)
		}
	}
	cancelled("C-c", "wait a while", "bash sleep 30", 1)
	cancelled("Escape", "wait again", "bash sleep 31", 2)

	tm.keys(true, "a draft I keep")
	tm.waitFor("a draft I keep", 30*time.Second)
	tm.keys(false, "C-c") // nothing runs: it clears the input, and does not leave
	testwait.For(t, 30*time.Second, func() error {
		if scr := tm.screen(); strings.Contains(scr, "a draft I keep") || strings.Contains(scr, "troupe exited") {
			return fmt.Errorf("the input was not cleared:\n%s", scr)
		}
		return nil
	})
	tm.keys(false, "C-c") // an empty input: says the next one leaves
	tm.waitFor("Ctrl-C again leaves", 30*time.Second)
	tm.keys(true, "x") // any other key stays
	testwait.For(t, 30*time.Second, func() error {
		if scr := tm.screen(); strings.Contains(scr, "Ctrl-C again leaves") {
			return fmt.Errorf("a key did not disarm the leave:\n%s", scr)
		}
		return nil
	})
	tm.keys(false, "C-c", "C-c", "C-c") // clears the x, then leaves on the empty input
	tm.waitFor("troupe exited 0", 30*time.Second)
}
