package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/troupe-dev/troupe/internal/mcptest"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// troupeBin is the binary under test, built once by TestMain.
var troupeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "troupe-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	troupeBin = filepath.Join(dir, "troupe")
	build := exec.Command("go", "build", "-o", troupeBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build troupe:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	mcptest.Cleanup()
	os.Exit(code)
}

// newRepo makes a throwaway git repository with the given files. The node a command starts
// there in the background is stopped when the test ends (before the directory goes).
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	t.Cleanup(func() { stopBackgroundNode(t, dir) })
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init", "--allow-empty")
	return dir
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// writeScript writes a scripted-provider script into dir and returns the --model value.
func writeScript(t *testing.T, dir, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return "scripted:" + p
}

// testEnv is a clean environment: no provider keys leak in from the machine, HOME is private.
func testEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	env := []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "NO_COLOR=1", "TERM=dumb"}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "TMPDIR"} {
		if v := os.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	if os.Getenv("GOCACHE") == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			env = append(env, "GOCACHE="+strings.TrimSpace(string(out)))
		}
	}
	return append(env, extra...)
}

// result of one troupe invocation.
type result struct {
	code           int
	stdout, stderr string
}

// troupe runs the binary in dir and waits for it (bounded); its stdin is the null device.
func troupe(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return troupeStdin(t, dir, env, nil, args...)
}

// troupeStdin runs the binary in dir with stdin (nil: the null device) and waits for it (bounded).
func troupeStdin(t *testing.T, dir string, env []string, stdin io.Reader, args ...string) result {
	t.Helper()
	cmd := exec.Command(troupeBin, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(testwait.Scale(3 * time.Minute)):
		cmd.Process.Kill()
		<-done
		t.Fatalf("troupe %v timed out\nstdout:\n%s\nstderr:\n%s", args, out.String(), errb.String())
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
}

// envelopes parses NDJSON output; every line must be an envelope.
func envelopes(t *testing.T, stdout string) []messages.Envelope {
	t.Helper()
	var out []messages.Envelope
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if line == "" {
			continue
		}
		var e messages.Envelope
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not an envelope: %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

// checkEnvelopes asserts v1 envelopes with gap-free seq per session.
func checkEnvelopes(t *testing.T, envs []messages.Envelope) {
	t.Helper()
	next := map[string]uint64{}
	for _, e := range envs {
		if e.V != 1 || e.Session == "" || e.Type == "" || e.TS.IsZero() || e.NS == "" {
			t.Errorf("bad envelope: %+v", e)
		}
		if want, ok := next[e.Session]; ok && e.Seq != want {
			t.Errorf("session %s: seq %d after %d (gap)", e.Session, e.Seq, want-1)
		}
		next[e.Session] = e.Seq + 1
	}
}

func types(envs []messages.Envelope) []string {
	var out []string
	for _, e := range envs {
		out = append(out, string(e.Type))
	}
	return out
}

func finished(t *testing.T, envs []messages.Envelope) *messages.SessionFinishedData {
	t.Helper()
	for _, e := range envs {
		if e.Type == messages.EventSessionFinished {
			v, err := e.DecodeData()
			if err != nil {
				t.Fatal(err)
			}
			return v.(*messages.SessionFinishedData)
		}
	}
	t.Fatalf("no session.finished in %v", types(envs))
	return nil
}

// toolResults returns the tool.finished payloads in order.
func toolResults(t *testing.T, envs []messages.Envelope) []*messages.ToolFinishedData {
	t.Helper()
	var out []*messages.ToolFinishedData
	for _, e := range envs {
		if e.Type == messages.EventToolFinished {
			v, _ := e.DecodeData()
			out = append(out, v.(*messages.ToolFinishedData))
		}
	}
	return out
}

// lineWatcher reads a process's output line by line so a test can wait for a line.
type lineWatcher struct {
	mu    sync.Mutex
	lines []string
	cond  chan struct{}
}

func watchLines(r io.Reader) *lineWatcher {
	w := &lineWatcher{cond: make(chan struct{}, 1)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			w.mu.Lock()
			w.lines = append(w.lines, sc.Text())
			w.mu.Unlock()
			select {
			case w.cond <- struct{}{}:
			default:
			}
		}
	}()
	return w
}

// waitFor polls until a line containing s has been read, or fails the test.
func (w *lineWatcher) waitFor(t *testing.T, s string, d time.Duration) string {
	t.Helper()
	d = testwait.Scale(d)
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		for _, l := range w.lines {
			if strings.Contains(l, s) {
				w.mu.Unlock()
				return l
			}
		}
		w.mu.Unlock()
		select {
		case <-w.cond:
		case <-time.After(50 * time.Millisecond):
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	t.Fatalf("no line with %q within %v; got:\n%s", s, d, strings.Join(w.lines, "\n"))
	return ""
}

func (w *lineWatcher) text() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "\n")
}
