package main

import (
	"io"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The line chat sends commands to the session and prints its answers; none reaches the model:
// each script has one turn, so a command that reached it would take the answer meant for the
// message. /model switches to another script for the next turn and is recorded for resume.
func TestChatCommandsAreAnsweredByTheSession(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	first := writeScript(t, repo, `{"turns": [{"text": "the plan is ready"}]}`)
	// The scripted provider picks its turn by the replies already in the request.
	second := writeScript(t, repo, `{"turns": [{"text": "not this one"}, {"text": "second model here"}]}`)
	cmd, stdin, out, stderr := startChat(t, repo, "--mode", "ask", "--sandbox", "off", "--model", first)
	step := func(line, want string) {
		t.Helper()
		io.WriteString(stdin, line+"\n")
		out.waitFor(t, want, 30*time.Second)
	}
	step("/tools", "tools (")
	step("/prompt plan", "prompt mode plan for the next turn")
	step("/tools", "write_file     by prompt mode plan")
	step("/session", "troupe resume")
	step("/permissions", "protected")
	step("/promt", "did you mean /prompt")
	step("/help reset", "usage: /reset [all]")
	if strings.Contains(out.text(), "the plan is ready") {
		t.Fatalf("a command reached the model:\n%s", out.text())
	}
	step("look around", "the plan is ready")
	step("/model "+second, "model scripted for the next turns")
	step("and now?", "second model here")
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	id := regexp.MustCompile(`session (\S+)`).FindStringSubmatch(stderr.String())
	if id == nil {
		t.Fatalf("no session id in %q", stderr.String())
	}
	r := troupe(t, repo, testEnv(t), "sessions")
	if !strings.Contains(r.stdout, second) {
		t.Errorf("the switched model is not what resume would use:\n%s", r.stdout)
	}
	if r := troupe(t, repo, testEnv(t), "log", id[1]); !strings.Contains(r.stdout, "session.configured") {
		t.Errorf("the log does not show the switches:\n%s", r.stdout)
	}
}

// In the terminal UI, /mode is a session command like any other: the status line follows the
// session's answer, and the session's /exit leaves.
func TestTUIModeGoesThroughTheSession(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "unused"}]}`)
	tm := startTmux(t, repo, 100, 30, troupeShell(t, nil, "chat", "--model", model, "--mode", "ask", "--sandbox", "off"))
	tm.waitFor("Enter sends", 30*time.Second)
	if scr := tm.screen(); !strings.Contains(scr, "mode ask") {
		t.Fatalf("no mode in the status line:\n%s", scr)
	}
	tm.keys(true, "/mode yolo")
	tm.keys(false, "Enter")
	tm.waitFor("scripted · mode yolo · ctx", 30*time.Second) // the status line, not the echo of the input
	tm.keys(true, "/prompt")
	tm.keys(false, "Enter")
	tm.waitFor("review-security", 30*time.Second)
	tm.keys(true, "/exit")
	tm.keys(false, "Enter")
	tm.waitFor("troupe exited 0", 30*time.Second)
}
