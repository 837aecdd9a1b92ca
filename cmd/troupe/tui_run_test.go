package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

const runViewScript = `{"turns": [
	{"text": "Let me look.", "tool_calls": [{"name": "bash", "args": {"command": "sleep 3; echo hi"}}]},
	{"text": "# Done\n\nThe **answer**:\n\n- one ` + "`item`" + `\n- two\n"}]}`

// troupe run on a terminal shows what runs while the model works (a spinner line with the
// tool, the elapsed time and the tokens) and renders the final markdown; piped, the same run
// prints the plain text.
func TestRunOnATerminalShowsProgressAndMarkdown(t *testing.T) {
	repo := newRepo(t, map[string]string{".agents/skills/bad/SKILL.md": "no front matter\n"})
	model := writeScript(t, repo, runViewScript)
	tm := startTmux(t, repo, 100, 30, troupeShell(t, nil, "run", "--model", model, "--mode", "yolo", "--sandbox", "off", "look around"))
	scr := tm.waitFor("bash sleep 3; echo hi…", 30*time.Second)
	if !strings.Contains(scr, "out tokens · Ctrl-C cancels") {
		t.Errorf("the progress line lacks the tokens:\n%s", scr)
	}
	scr = tm.waitFor("troupe exited 0", 30*time.Second)
	for _, want := range []string{"• one item", "→ bash sleep 3; echo hi", "✓ hi"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the terminal lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "`item`") || strings.Contains(scr, "**answer**") || strings.Contains(scr, "Ctrl-C cancels") {
		t.Errorf("raw markdown, or the spinner stayed:\n%s", scr)
	}

	r := troupe(t, repo, testEnv(t), "run", "--model", model, "--mode", "yolo", "--sandbox", "off", "look around")
	if r.code != 0 || !strings.Contains(r.stdout, "- one `item`") || strings.Contains(r.stdout+r.stderr, "Ctrl-C cancels") {
		t.Errorf("piped run: exit %d, not plain:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "troupe: warning: skipped a broken skill"); n != 1 || strings.Contains(r.stderr, "level=") {
		t.Errorf("the broken skill is not said once in plain words:\n%s", r.stderr)
	}
}

// With the answer piped to a file and stderr still a terminal, the spinner says what runs on
// the terminal, and the file gets the plain text, with no spinner in it.
func TestRunPipedShowsProgressOnStderr(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, runViewScript)
	out := t.TempDir() + "/out.txt"
	shell := strings.Replace(troupeShell(t, nil, "run", "--model", model, "--mode", "yolo", "--sandbox", "off", "look around"),
		`; echo "troupe exited`, " > "+shellQuote(out)+`; echo "troupe exited`, 1)
	tm := startTmux(t, repo, 100, 30, shell)
	tm.waitFor("bash sleep 3; echo hi…", 30*time.Second)
	tm.waitFor("troupe exited 0", 30*time.Second)
	data, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(data), "- one `item`") || !strings.Contains(string(data), "→ bash sleep 3; echo hi") ||
		strings.Contains(string(data), "Ctrl-C cancels") || strings.Contains(string(data), "\x1b") {
		t.Errorf("the piped answer is not plain (%v):\n%s", err, data)
	}
}

// Ctrl-C during a run on a terminal cancels it with one line, and the spinner goes.
func TestRunOnATerminalCtrlC(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"tool_calls": [{"name": "bash", "args": {"command": "sleep 30"}}]}, {"text": "never"}]}`)
	tm := startTmux(t, repo, 100, 30, troupeShell(t, nil, "run", "--model", model, "--mode", "yolo", "--sandbox", "off", "wait"))
	tm.waitFor("bash sleep 30…", 30*time.Second)
	tm.keys(false, "C-c")
	scr := tm.waitFor("troupe exited 130", 30*time.Second)
	testwait.For(t, 30*time.Second, func() error {
		if scr = tm.screen(); strings.Contains(scr, "Ctrl-C cancels") {
			return fmt.Errorf("the spinner stayed:\n%s", scr)
		}
		return nil
	})
	if strings.Contains(scr, "never") {
		t.Errorf("the run went on:\n%s", scr)
	}
}
