package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// The full-screen chat's comforts under a real terminal: Tab completes commands, /model's
// models and @paths; "!command" asks in ask mode like any bash call, shows its output, and
// Ctrl-C stops it; "@path" attaches the file for the model.
func TestTUIShellMentionsAndTabUnderTmux(t *testing.T) {
	repo := newRepo(t, map[string]string{"notes.md": "file-marker-7\n", ".agents/skills/bad/SKILL.md": "no front matter\n"})
	model := writeScript(t, repo, `{"turns": [{"text": "got the file", "expect": "file-marker-7"}]}`)
	tm := startTmux(t, repo, 110, 34, troupeShell(t, []string{"OPENAI_API_KEY=sk-test-not-used"},
		"chat", "--model", model, "--mode", "ask", "--sandbox", "off"))
	tm.waitFor("Enter sends", 30*time.Second)
	if scr := tm.waitFor("warning: skipped a broken skill,", 30*time.Second); !strings.Contains(scr, "SKILL.md: missing front matter") {
		t.Errorf("the broken skill's warning does not say what is wrong:\n%s", scr)
	}
	gone := func(what string) {
		t.Helper()
		testwait.For(t, 30*time.Second, func() error {
			if scr := tm.screen(); strings.Contains(scr, what) {
				return fmt.Errorf("the screen still shows %q:\n%s", what, scr)
			}
			return nil
		})
	}

	tm.keys(true, "/mod")
	tm.keys(false, "Tab")
	tm.waitFor("/mode  /model", 30*time.Second)
	tm.keys(true, "l ") // Tab gave /mode, the candidates' common part
	tm.keys(false, "Tab")
	tm.waitFor("openai/gpt-4o-mini", 30*time.Second) // the configured provider's models
	tm.keys(false, "C-c")                            // clears the input and the list
	gone("openai/gpt-4o-mini")
	tm.keys(true, "/prompt bra")
	tm.keys(false, "Tab")
	tm.waitFor("/prompt brainstorm", 30*time.Second) // a prompt mode
	tm.keys(false, "C-c")
	gone("/prompt brainstorm")

	tm.keys(true, "!touch made.txt")
	tm.keys(false, "Enter")
	tm.waitFor("Allow bash", 30*time.Second)
	tm.keys(false, "n")
	tm.waitFor("denied", 30*time.Second)
	if _, err := os.Stat(filepath.Join(repo, "made.txt")); !os.IsNotExist(err) {
		t.Fatal("a denied !touch ran")
	}

	tm.keys(true, "!echo tui-shell-9")
	tm.keys(false, "Enter")
	tm.waitFor("Allow bash", 30*time.Second)
	tm.keys(false, "y")
	tm.waitFor("│ tui-shell-9", 30*time.Second) // the output shows, expanded

	tm.keys(true, "!sleep 30")
	tm.keys(false, "Enter")
	tm.waitFor("Allow bash", 30*time.Second)
	tm.keys(false, "y")
	tm.waitFor("tool bash sleep 30…", 30*time.Second)
	tm.keys(false, "C-c") // stops the command; the chat goes on
	gone("tool bash sleep 30…")
	gone("cancelling…")

	tm.keys(true, "read @no")
	tm.keys(false, "Tab")
	tm.waitFor("read @notes.md", 30*time.Second)
	tm.keys(true, "please")
	tm.keys(false, "Enter")
	tm.waitFor("got the file", 30*time.Second) // the model saw the file (its script expects it)
	if scr := tm.screen(); strings.Contains(scr, "troupe exited") {
		t.Fatalf("the chat left:\n%s", scr)
	}
	tm.keys(true, "/exit")
	tm.keys(false, "Enter")
	tm.waitFor("troupe exited 0", 30*time.Second)
}
