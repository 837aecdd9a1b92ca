package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// troupeIn runs the binary with stdin fed from in (bounded, like troupe).
func troupeIn(t *testing.T, dir string, env []string, in []byte, args ...string) result {
	t.Helper()
	return troupeStdin(t, dir, env, bytes.NewReader(in), args...)
}

// The task the model received first, from the session.started event.
func startedTask(t *testing.T, r result) string {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	for _, env := range envelopes(t, r.stdout) {
		if env.Type == messages.EventSessionStarted {
			v, err := env.DecodeData()
			if err != nil {
				t.Fatal(err)
			}
			return v.(*messages.SessionStartedData).Task
		}
	}
	t.Fatalf("no session.started in:\n%s", r.stdout)
	return ""
}

func TestRunTakesThePromptTheWayShellsGiveIt(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	cases := []struct {
		name   string
		stdin  string
		args   []string
		expect string // what the model's first request must end with
	}{
		{"stdin is the task", "what is PIPED-TASK-1?\n", nil, "what is PIPED-TASK-1?"},
		{"dash reads stdin", "what is DASH-TASK-2?", []string{"-"}, "what is DASH-TASK-2?"},
		{"words are one prompt", "", []string{"fix", "the", "WORDS-3", "bug"}, "fix the WORDS-3 bug"},
		{"stdin is context for a prompt", "--- a/x.go\n+++ b/x.go\n+CONTEXT-4\n", []string{"review", "this"},
			"review this\n\n<stdin>\n--- a/x.go\n+++ b/x.go\n+CONTEXT-4\n</stdin>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := writeScript(t, repo, `{"turns": [{"expect": `+jsonString(c.expect)+`, "text": "seen"}]}`)
			args := append([]string{"run", "--json", "--model", model}, c.args...)
			r := troupeIn(t, repo, testEnv(t), []byte(c.stdin), args...)
			if got := startedTask(t, r); got != c.expect {
				t.Errorf("task = %q, want %q", got, c.expect)
			}
			if fin := finished(t, envelopes(t, r.stdout)); fin.Status != messages.StatusDone || fin.Final != "seen" {
				t.Errorf("finished = %+v", fin)
			}
		})
	}
}

// Bad stdin is one line and exit 2, before any session starts; an empty pipe with a prompt is
// no context at all.
func TestRunRefusesStdinItCannotTake(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "never"}]}`)
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 2<<20/17) // about 2 MB of text
	binary := append([]byte("PK\x03\x04"), make([]byte, 64)...)
	cases := []struct {
		name  string
		stdin []byte
		args  []string
		want  string
	}{
		{"2 MB as the task", big, nil, "more than 256 KiB"},
		{"2 MB as context", big, []string{"review", "this"}, "more than 256 KiB"},
		{"binary as context", binary, []string{"review"}, "binary data"},
		{"invalid UTF-8", []byte("caf\xe9\n"), []string{"-"}, "not UTF-8"},
		{"empty stdin, no prompt", nil, nil, "stdin was empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := troupeIn(t, repo, testEnv(t), c.stdin, append([]string{"run", "--model", model}, c.args...)...)
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if r.code != exitUsage || len(lines) != 1 || !strings.Contains(lines[0], c.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line saying %q", r.code, r.stderr, c.want)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing (no session ran)", r.stdout)
			}
		})
	}
	// No stdin at all (/dev/null) and no prompt: says how to give one, waits for nothing.
	r := troupe(t, repo, testEnv(t), "run", "--model", model)
	if r.code != exitUsage || !strings.Contains(r.stderr, "no task") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// Plain troupe with a prompt starts the chat (here the line chat: stdin is a pipe) with the
// prompt as its first message and the chat's flags; a subcommand's name wins, -- makes it a
// prompt, and a near miss of a command is refused rather than sent to the model.
func TestPlainTroupeWithAPromptStartsTheChat(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"expect": "sessions are slow", "text": "CHAT-ANSWER-5"}]}`)
	r := troupeIn(t, repo, testEnv(t), []byte("/exit\n"), "--model", model, "--mode", "plan", "--", "sessions", "are", "slow")
	if r.code != 0 || !strings.Contains(r.stdout, "CHAT-ANSWER-5") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "troupe chat") || !strings.Contains(r.stderr, "mode plan") {
		t.Errorf("not the chat with its flags: %s", r.stderr)
	}
	r = troupeIn(t, repo, testEnv(t), nil, "sessions")
	if r.code != 0 || strings.Contains(r.stderr, "no model") {
		t.Errorf("troupe sessions was not the subcommand: exit %d, %s", r.code, r.stderr)
	}
	r = troupeIn(t, repo, testEnv(t), nil, "sesions")
	if r.code != exitUsage || !strings.Contains(r.stderr, "did you mean 'sessions'") {
		t.Errorf("near miss: exit %d, %s", r.code, r.stderr)
	}
}

// On a terminal, troupe with flags and a prompt opens the full-screen chat with the prompt as its
// first message, shown as typed, and the chat's flags in effect.
func TestTUITroupeWithAPrompt(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"expect": "explain the layout", "text": "TUI-ANSWER-6"}]}`)
	tm := startTmux(t, repo, 100, 30, troupeShell(t, nil, "--model", model, "--mode", "plan", "explain", "the", "layout"))
	scr := tm.waitFor("TUI-ANSWER-6", 30*time.Second)
	for _, want := range []string{"› explain the layout", "mode plan"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q:\n%s", want, scr)
		}
	}
	tm.keys(false, "C-c")
	tm.waitFor("Ctrl-C again leaves", 30*time.Second)
	tm.keys(false, "C-c")
	tm.waitFor("troupe exited 0", 30*time.Second)
}
