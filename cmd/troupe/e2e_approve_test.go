package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// startChat starts `troupe chat` with a stdin the test writes to.
func startChat(t *testing.T, dir string, args ...string) (*exec.Cmd, io.WriteCloser, *lineWatcher, *strings.Builder) {
	t.Helper()
	return startWithStdin(t, dir, testEnv(t), append([]string{"chat"}, args...)...)
}

const approveScript = `{"turns": [
	{"tool_calls": [{"name": "write_file", "args": {"path": "note.txt", "content": "approved\n"}}]},
	{"text": "written"}]}`

func TestChatAsksAndTheKeyboardAnswers(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, approveScript)
	cmd, stdin, out, stderr := startChat(t, repo, "--mode", "ask", "--sandbox", "off", "--model", model)
	io.WriteString(stdin, "write the note\n")
	out.waitFor(t, "wants to run write_file (create) note.txt", 30*time.Second)
	if _, err := os.Stat(filepath.Join(repo, "note.txt")); !os.IsNotExist(err) {
		t.Fatal("written before the answer")
	}
	io.WriteString(stdin, "y\n")
	out.waitFor(t, "written", 30*time.Second)
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	if data, _ := os.ReadFile(filepath.Join(repo, "note.txt")); string(data) != "approved\n" {
		t.Fatalf("note.txt = %q", data)
	}
	id := regexp.MustCompile(`session (\S+)`).FindStringSubmatch(stderr.String())
	if id == nil {
		t.Fatalf("no session id in %q", stderr.String())
	}
	r := troupe(t, repo, testEnv(t), "log", id[1])
	for _, want := range []string{"tool.decision call_0_0 write_file asked", "tool.decision call_0_0 write_file allowed by"} {
		if !strings.Contains(r.stdout, want) && !strings.Contains(r.stdout, strings.Replace(want, " by", ":", 1)) {
			t.Errorf("log lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestApproveFromAnotherTerminal(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, approveScript)
	cmd, stdin, out, stderr := startChat(t, repo, "--mode", "ask", "--sandbox", "off", "--model", model)
	io.WriteString(stdin, "write the note\n")
	out.waitFor(t, "wants to run write_file", 30*time.Second)

	// Clients that come after the request still see it: troupe approvals and troupe watch.
	if r := troupe(t, repo, testEnv(t), "approvals"); r.code != 0 || !strings.Contains(r.stdout, "call_0_0") || !strings.Contains(r.stdout, "write_file") {
		t.Errorf("approvals: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	watch, wout, _ := startTroupe(t, repo, testEnv(t), "watch")
	wout.waitFor(t, "call_0_0", 30*time.Second)
	watch.Process.Kill()
	watch.Wait()
	if r := troupe(t, repo, testEnv(t), "approve", "call_9_9", "allow"); r.code != 1 || !strings.Contains(r.stderr, "no running session") {
		t.Errorf("approving an unknown call: exit %d %s", r.code, r.stderr)
	}
	if r := troupe(t, repo, testEnv(t), "approve", "call_0_0", "maybe"); r.code != 2 {
		t.Errorf("a bad answer: exit %d %s", r.code, r.stderr)
	}
	if r := troupe(t, repo, testEnv(t), "approve", "call_0_0", "allow"); r.code != 0 {
		t.Fatalf("approve: exit %d\n%s", r.code, r.stderr)
	}
	out.waitFor(t, "answered elsewhere", 30*time.Second)
	out.waitFor(t, "written", 30*time.Second)
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(repo, "note.txt")); err != nil {
		t.Fatal("the approved write did not happen")
	}
	if r := troupe(t, repo, testEnv(t), "approve", "call_0_0", "allow"); r.code != 1 || !strings.Contains(r.stderr, "no running session has call call_0_0") {
		t.Errorf("approve once the chat ended: exit %d %s", r.code, r.stderr)
	}
	troupe(t, repo, testEnv(t), "stop")
	if r := troupe(t, repo, testEnv(t), "approve", "call_0_0", "allow"); r.code != 1 || !strings.Contains(r.stderr, "no troupe node") {
		t.Errorf("approve with no node running: exit %d %s", r.code, r.stderr)
	}
}

func TestHeadlessRunDeniesAsksAndSaysHow(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, approveScript)
	r := troupe(t, repo, testEnv(t), "run", "--sandbox", "off", "--model", model, "write the note")
	if r.code != 0 || !strings.Contains(r.stdout, "--yes") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stdout, "permission denied"); n != 1 {
		t.Errorf("the denial is printed %d times, want once:\n%s", n, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(repo, "note.txt")); !os.IsNotExist(err) {
		t.Fatal("a headless ask was allowed")
	}
	r = troupe(t, repo, testEnv(t), "run", "--yes", "--sandbox", "off", "--model", model, "write the note")
	if _, err := os.Stat(filepath.Join(repo, "note.txt")); r.code != 0 || err != nil {
		t.Fatalf("--yes: exit %d, file %v\n%s", r.code, err, r.stderr)
	}
}

// A detached run in ask mode waits for approval instead of denying: another process lists the
// call with its reason, an attached client shows it, troupe approve answers it, and the session
// goes on. An approval for the session once it ended is one clear line.
func TestDetachedRunIsApprovedFromAnotherProcess(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	t.Cleanup(func() { stopBackgroundNode(t, repo) })
	model := writeScript(t, repo, approveScript)
	r := troupe(t, repo, env, "run", "--detach", "--mode", "ask", "--sandbox", "off", "--model", model, "write the note")
	if r.code != 0 || !sessionIDLine.MatchString(r.stdout) {
		t.Fatalf("run --detach: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	id := strings.TrimSpace(r.stdout)
	var list result
	pollFor(t, 30*time.Second, "troupe approvals to list the detached run's call", func() bool {
		list = troupe(t, repo, env, "approvals")
		return strings.Contains(list.stdout, "call_0_0")
	})
	for _, want := range []string{"session " + id, "write_file create note.txt", "ask mode asks before workspace writes"} {
		if !strings.Contains(list.stdout, want) {
			t.Errorf("approvals lacks %q:\n%s", want, list.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "note.txt")); !os.IsNotExist(err) {
		t.Fatal("the call ran before it was approved")
	}
	att, aout, _ := startTroupe(t, repo, env, "attach", id)
	aout.waitFor(t, "call_0_0 waits for approval: write_file create note.txt", 30*time.Second)

	if a := troupe(t, repo, env, "approve", "call_0_0", "allow"); a.code != 0 || !strings.Contains(a.stdout, id) {
		t.Fatalf("approve: exit %d\n%s%s", a.code, a.stdout, a.stderr)
	}
	if code := waitExit(t, att, 30*time.Second); code != 0 {
		t.Errorf("attach exit %d after the approved run ended:\n%s", code, aout.text())
	}
	if data, err := os.ReadFile(filepath.Join(repo, "note.txt")); err != nil || string(data) != "approved\n" {
		t.Fatalf("the approved write did not happen: %q %v", data, err)
	}
	a := troupe(t, repo, env, "approve", "--session", id, "call_0_0", "deny")
	if a.code != 1 || !strings.Contains(a.stderr, "already ended") || strings.Count(strings.TrimSpace(a.stderr), "\n") != 0 {
		t.Errorf("approving in an ended session: exit %d, want 1 and one line saying it ended:\n%s", a.code, a.stderr)
	}
}

// With no node running nothing can wait for approval: the list says so and exits 0, as an
// empty list does (approve, which cannot act, still fails).
func TestApprovalsWithNoNodeIsAnEmptyList(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	r := troupe(t, repo, testEnv(t), "approvals")
	if r.code != 0 || !strings.Contains(r.stdout, "no tool call is waiting for approval") || r.stderr != "" {
		t.Errorf("approvals with no node: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if r := troupe(t, repo, testEnv(t), "approve", "call_1", "allow"); r.code != 1 {
		t.Errorf("approve with no node: exit %d, want 1\n%s", r.code, r.stderr)
	}
}
