package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// startTroupe starts the binary without waiting, stdin on /dev/null (a run would otherwise wait
// for a piped stdin to close: see prompt.go); stdout is watched line by line.
func startTroupe(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, *lineWatcher, *strings.Builder) {
	t.Helper()
	cmd, _, out, stderr := startProcess(t, dir, env, false, args...)
	return cmd, out, stderr
}

// startWithStdin is startTroupe with a stdin the test writes to (closed at cleanup).
func startWithStdin(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, io.WriteCloser, *lineWatcher, *strings.Builder) {
	t.Helper()
	return startProcess(t, dir, env, true, args...)
}

func startProcess(t *testing.T, dir string, env []string, piped bool, args ...string) (*exec.Cmd, io.WriteCloser, *lineWatcher, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(troupeBin, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdin io.WriteCloser = nopCloser{}
	if piped {
		var err error
		if stdin, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, stdin, watchLines(stdout), &stderr
}

type nopCloser struct{}

func (nopCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopCloser) Close() error                { return nil }

func waitExit(t *testing.T, cmd *exec.Cmd, d time.Duration) int {
	t.Helper()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(testwait.Scale(d)):
		cmd.Process.Kill()
		<-done
		t.Fatalf("process did not exit within %v", d)
		return -1
	}
}

// kill -9 while bash runs, then resume: the session continues, the next model request carries
// an "interrupted" result for the cut-off call, and nothing committed before is lost.
func TestKill9DuringBashThenResume(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	marker := filepath.Join(t.TempDir(), "started")
	model := writeScript(t, repo, `{"turns": [
		{"text": "first I read", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "now a long command", "tool_calls": [{"name": "bash", "args": {"command": "touch `+marker+`; exec sleep 60"}}]},
		{"expect": "interrupted", "text": "resumed after the crash"}]}`)
	cmd, out, stderr := startTroupe(t, repo, testEnv(t), "run", "--json", "--mode", "yolo", "--sandbox", "off", "--model", model, "work")
	line := out.waitFor(t, `"tool.started"`, 30*time.Second)
	_ = line
	out.waitFor(t, `"call_1_0"`, 30*time.Second)
	waitFile(t, marker, 30*time.Second)
	cmd.Process.Signal(syscall.SIGKILL)
	waitExit(t, cmd, 10*time.Second)
	var first messages.Envelope
	json.Unmarshal([]byte(strings.SplitN(out.text(), "\n", 2)[0]), &first)
	id := first.Session
	if id == "" {
		t.Fatalf("no session id in output:\n%s\n%s", out.text(), stderr.String())
	}

	r := troupe(t, repo, testEnv(t), "resume", "--json", "--mode", "yolo", "--sandbox", "off", id)
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", r.code, r.stderr, r.stdout)
	}
	fin := finished(t, envelopes(t, r.stdout))
	if fin.Final != "resumed after the crash" {
		t.Errorf("final = %q", fin.Final)
	}
	lg := troupe(t, repo, testEnv(t), "log", id)
	for _, want := range []string{"first I read", "alpha", "now a long command", "interrupted", "resumed after the crash"} {
		if !strings.Contains(lg.stdout, want) {
			t.Errorf("log lost %q:\n%s", want, lg.stdout)
		}
	}
}

func waitFile(t *testing.T, path string, d time.Duration) {
	t.Helper()
	testwait.For(t, d, func() error {
		_, err := os.Stat(path)
		return err
	})
}

// Ctrl-C cancels the turn: the run exits 130 and the session is stored as interrupted.
func TestInterruptExits130(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "sleep 60"}}]},
		{"text": "never"}]}`)
	cmd, out, stderr := startTroupe(t, repo, testEnv(t), "run", "--json", "--mode", "yolo", "--sandbox", "off", "--model", model, "wait")
	out.waitFor(t, `"tool.started"`, 30*time.Second)
	cmd.Process.Signal(os.Interrupt)
	if code := waitExit(t, cmd, 30*time.Second); code != 130 {
		t.Errorf("exit %d, want 130\n%s", code, stderr.String())
	}
	fin := finished(t, envelopes(t, out.text()))
	if fin.Status != messages.StatusInterrupted {
		t.Errorf("status %q", fin.Status)
	}
	res := toolResults(t, envelopes(t, out.text()))
	if len(res) != 1 || !res[0].IsError {
		t.Errorf("the cancelled call has no error result: %+v", res)
	}
}

// troupe watch in another process follows a run live over the bus.
func TestWatchFollowsARunFromAnotherProcess(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	model := writeScript(t, repo, `{"turns": [
		{"delay_ms": 1500, "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "watched answer"}]}`)
	watch, wout, _ := startTroupe(t, repo, testEnv(t), "watch", "--json")
	run, rout, rerr := startTroupe(t, repo, testEnv(t), "run", "--json", "--model", model, "go")
	if code := waitExit(t, run, 60*time.Second); code != 0 {
		t.Fatalf("run exit %d: %s", code, rerr.String())
	}
	wout.waitFor(t, `"session.finished"`, 30*time.Second)
	watch.Process.Signal(os.Interrupt)
	waitExit(t, watch, 10*time.Second)
	seen := envelopes(t, wout.text())
	checkEnvelopes(t, seen)
	ran := envelopes(t, rout.text())
	// The watcher joins while the first turn waits, so it sees the tail of the run in order.
	tail := ran[len(ran)-len(seen):]
	for i := range seen {
		if seen[i].Seq != tail[i].Seq || seen[i].Type != tail[i].Type {
			t.Fatalf("watch saw %v, run printed %v", types(seen), types(ran))
		}
	}
	if !strings.Contains(wout.text(), "tool.finished") {
		t.Errorf("watch missed the tool call: %v", types(seen))
	}
}

// A second troupe process attaches to the running Node instead of opening the store; the
// first process keeps its Node up until the attached session is done.
func TestSecondRunAttachesToTheRunningNode(t *testing.T) {
	repo := newRepo(t, nil)
	slow := writeScript(t, repo, `{"turns": [{"delay_ms": 2000, "text": "slow done"}]}`)
	fast := writeScript(t, repo, `{"turns": [{"text": "fast done"}]}`)
	first, fout, ferr := startTroupe(t, repo, testEnv(t), "run", "--json", "--model", slow, "slow")
	fout.waitFor(t, `"session.started"`, 30*time.Second)
	info, err := os.ReadFile(filepath.Join(repo, ".troupe", "node.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(filepath.Join(repo, ".troupe", "node.json"))
	if st.Mode().Perm() != 0o600 {
		t.Errorf("node.json mode %v, want 0600", st.Mode().Perm())
	}
	r := troupe(t, repo, testEnv(t), "run", "--json", "--model", fast, "fast")
	if r.code != 0 {
		t.Fatalf("second run: exit %d: %s", r.code, r.stderr)
	}
	if fin := finished(t, envelopes(t, r.stdout)); fin.Final != "fast done" {
		t.Errorf("second final %q", fin.Final)
	}
	if !strings.Contains(string(info), `"pid"`) {
		t.Errorf("node.json: %s", info)
	}
	if code := waitExit(t, first, 60*time.Second); code != 0 {
		t.Errorf("first run exit %d: %s", code, ferr.String())
	}
	// The node is neither run's: it outlives both, for the next command, until idle.
	if after, err := os.ReadFile(filepath.Join(repo, ".troupe", "node.json")); err != nil || string(after) != string(info) {
		t.Errorf("node.json after both runs: %s %v, want the same node as before:\n%s", after, err, info)
	}
}

// A node.json left by a killed process is detected as stale and replaced.
func TestStaleNodeFileIsReplaced(t *testing.T) {
	repo := newRepo(t, nil)
	os.MkdirAll(filepath.Join(repo, ".troupe"), 0o755)
	stale := `{"url":"nats://127.0.0.1:1","token":"x","pid":999999999,"ns":"x","node":"n1"}`
	os.WriteFile(filepath.Join(repo, ".troupe", "node.json"), []byte(stale), 0o600)
	model := writeScript(t, repo, `{"turns": [{"text": "fine"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--model", model, "hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}
