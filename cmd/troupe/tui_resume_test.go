package main

import (
	"strings"
	"testing"
	"time"
)

// storedSession runs one headless session whose task and answer are marked, and returns its id.
func storedSession(t *testing.T, repo, task, answer string) string {
	t.Helper()
	model := writeScript(t, repo, `{"turns": [{"text": "`+answer+`"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--model", model, task)
	if r.code != 0 {
		t.Fatalf("run %q: exit %d: %s", task, r.code, r.stderr)
	}
	_, tail, ok := strings.Cut(r.stderr, "troupe resume ")
	if !ok {
		t.Fatalf("no session id in: %s", r.stderr)
	}
	return strings.TrimRight(strings.TrimSpace(tail), ")")
}

// chat --continue reopens the project's last session in the full-screen chat, with its
// conversation on screen, and the conversation goes on.
func TestTUIChatContinueReopensTheLastSession(t *testing.T) {
	repo := newRepo(t, nil)
	storedSession(t, repo, "older TASK-OLD", "ANSWER-OLD")
	storedSession(t, repo, "newer TASK-NEW", "ANSWER-NEW")
	model := writeScript(t, repo, `{"turns": [{"text": "turn 1 is the stored one"}, {"expect": "and then?", "text": "ANSWER-MORE"}]}`)
	tm := startTmux(t, repo, 100, 30, troupeShell(t, nil, "chat", "--continue", "--model", model))
	scr := tm.waitFor("ANSWER-NEW", 30*time.Second)
	if !strings.Contains(scr, "› newer TASK-NEW") || strings.Contains(scr, "TASK-OLD") {
		t.Errorf("not the last session's conversation:\n%s", scr)
	}
	tm.keys(true, "and then?")
	tm.keys(false, "Enter")
	tm.waitFor("ANSWER-MORE", 30*time.Second)
	tm.keys(false, "C-c")
	tm.waitFor("Ctrl-C again leaves", 30*time.Second)
	tm.keys(false, "C-c")
	tm.waitFor("troupe exited 0", 30*time.Second)
}

// chat --resume without an ID shows the recent sessions; Enter opens the one chosen.
func TestTUIChatResumePicker(t *testing.T) {
	repo := newRepo(t, nil)
	storedSession(t, repo, "older TASK-OLD", "ANSWER-OLD")
	storedSession(t, repo, "newer TASK-NEW", "ANSWER-NEW")
	model := writeScript(t, repo, `{"turns": [{"text": "unused"}]}`)
	tm := startTmux(t, repo, 110, 30, troupeShell(t, nil, "chat", "--resume", "--model", model))
	scr := tm.waitFor("Resume a session", 30*time.Second)
	for _, want := range []string{"newer TASK-NEW", "older TASK-OLD", "ago", "1 turns"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the picker lacks %q:\n%s", want, scr)
		}
	}
	if strings.Index(scr, "TASK-NEW") > strings.Index(scr, "TASK-OLD") {
		t.Errorf("not newest first:\n%s", scr)
	}
	tm.keys(false, "Down")
	tm.keys(false, "Enter")
	scr = tm.waitFor("ANSWER-OLD", 30*time.Second)
	if strings.Contains(scr, "ANSWER-NEW") {
		t.Errorf("opened the wrong session:\n%s", scr)
	}
	tm.keys(false, "C-c")
	tm.waitFor("Ctrl-C again leaves", 30*time.Second)
	tm.keys(false, "C-c")
	tm.waitFor("troupe exited 0", 30*time.Second)

	// Esc in the picker leaves with one line and nothing opened.
	tm2 := startTmux(t, repo, 110, 30, troupeShell(t, nil, "chat", "--resume", "--model", model))
	tm2.waitFor("Resume a session", 30*time.Second)
	tm2.keys(false, "Escape")
	tm2.waitFor("troupe exited 0", 30*time.Second)
	if scr := tm2.screen(); !strings.Contains(scr, "no session picked") {
		t.Errorf("no line after Esc:\n%s", scr)
	}
}

// troupe resume ID on a terminal opens the chat on that session.
func TestTUIResumeOpensTheChat(t *testing.T) {
	repo := newRepo(t, nil)
	id := storedSession(t, repo, "only TASK-ONE", "ANSWER-ONE")
	model := writeScript(t, repo, `{"turns": [{"text": "unused"}]}`)
	tm := startTmux(t, repo, 100, 30, troupeShell(t, nil, "resume", id, "--model", model))
	scr := tm.waitFor("ANSWER-ONE", 30*time.Second)
	if !strings.Contains(scr, "› only TASK-ONE") || !strings.Contains(scr, "Enter sends") {
		t.Errorf("not the chat on %s:\n%s", id, scr)
	}
	tm.keys(false, "C-c")
	tm.waitFor("Ctrl-C again leaves", 30*time.Second)
	tm.keys(false, "C-c")
	tm.waitFor("troupe exited 0", 30*time.Second)
}

// --continue with no session in the project: one line, exit 2.
func TestChatContinueWithNoSessions(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "unused"}]}`)
	r := troupe(t, repo, testEnv(t), "chat", "--continue", "--model", model)
	if lines := strings.Split(strings.TrimSpace(r.stderr), "\n"); r.code != exitUsage || len(lines) != 1 || !strings.Contains(r.stderr, "no session to resume") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}
