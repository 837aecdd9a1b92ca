package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/actors"
)

// The node's lifetime with the real binary (docs/ARCHITECTURE.md "The node process"): a
// background process every CLI process is a client of, started on first use, stopped when
// idle or by troupe stop.

// slowScript answers after a minute: a run that is still running whenever the test looks.
const slowScript = `{"turns": [{"delay_ms": 60000, "text": "too late"}]}`

var startedEnvelope = regexp.MustCompile(`"session":"(\d{8}-\d{6}-[0-9a-f]{6})"[^\n]*"type":"session.started"`)

// startedSession waits for a run started with --json to print its session.started envelope and
// returns the session's id.
func startedSession(t *testing.T, out *lineWatcher) string {
	t.Helper()
	out.waitFor(t, `"session.started"`, 30*time.Second)
	m := startedEnvelope.FindStringSubmatch(out.text())
	if m == nil {
		t.Fatalf("no session id in %s", out.text())
	}
	return m[1]
}

// sessionStatus is the status troupe sessions shows for id.
func sessionStatus(t *testing.T, repo string, env []string, id string) string {
	t.Helper()
	if f := strings.Fields(lineOf2(troupe(t, repo, env, "sessions").stdout, id)); len(f) > 1 {
		return f[1]
	}
	return ""
}

// Two terminals: a second run is neither blocked by a first one still running nor stopped with
// it; Ctrl-C in one client cancels only that client's session; a client killed outright has its
// session recorded as interrupted, the others going on.
func TestRunsInTwoTerminalsShareTheNodeButNotTheirFate(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	slow := writeScript(t, repo, slowScript)
	a, aout, aerr := startTroupe(t, repo, env, "run", "--json", "--sandbox", "off", "--model", slow, "wait a minute")
	idA := startedSession(t, aout)

	quick := writeScript(t, repo, `{"turns": [{"text": "quick answer"}]}`)
	b := troupe(t, repo, env, "run", "--sandbox", "off", "--model", quick, "be quick")
	if b.code != 0 || !strings.Contains(b.stdout, "quick answer") || strings.Contains(b.stderr, "waiting") {
		t.Fatalf("the second run: exit %d\nstdout: %s\nstderr: %s", b.code, b.stdout, b.stderr)
	}
	if a.ProcessState != nil || sessionStatus(t, repo, env, idA) != "running" {
		t.Fatalf("the first run did not keep running beside the second")
	}

	c, cout, _ := startTroupe(t, repo, env, "run", "--json", "--sandbox", "off", "--model", slow, "wait too")
	idC := startedSession(t, cout)
	a.Process.Signal(os.Interrupt)
	if code := waitExit(t, a, 30*time.Second); code != exitInterrupted {
		t.Errorf("Ctrl-C: exit %d, want %d\n%s", code, exitInterrupted, aerr.String())
	}
	pollFor(t, 30*time.Second, "the interrupted session to record its end", func() bool {
		return sessionStatus(t, repo, env, idA) == "interrupted"
	})
	if c.ProcessState != nil || sessionStatus(t, repo, env, idC) != "running" {
		t.Fatalf("Ctrl-C in one terminal stopped the other's run")
	}

	c.Process.Kill() // kill -9: no client left to follow the session
	waitExit(t, c, 30*time.Second)
	pollFor(t, 30*time.Second, "the node to interrupt the session of a client that went away", func() bool {
		return sessionStatus(t, repo, env, idC) == "interrupted"
	})
	if _, err := actors.FindNode(repo); err != nil {
		t.Errorf("the node did not outlive its clients: %v", err)
	}
}

// The node stops by itself once nothing runs and no client is connected for the idle time.
func TestTheNodeStopsWhenIdle(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t, "TROUPE_NODE_IDLE=1s")
	quick := writeScript(t, repo, `{"turns": [{"text": "done"}]}`)
	if r := troupe(t, repo, env, "run", "--sandbox", "off", "--model", quick, "go"); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	info, err := actors.FindNode(repo)
	if err != nil {
		t.Fatalf("no node outlived the run (it should wait for the next command): %v", err)
	}
	pollFor(t, 30*time.Second, "the idle node to stop", func() bool { return !actors.ProcessAlive(info.PID) })
	if _, err := os.Stat(filepath.Join(repo, ".troupe", "node.json")); !os.IsNotExist(err) {
		t.Errorf("node.json left behind: %v", err)
	}
	log, _ := os.ReadFile(filepath.Join(repo, ".troupe", "serve.log"))
	if !strings.Contains(string(log), "idle for 1s") {
		t.Errorf("the node's log does not say it stopped for being idle:\n%s", log)
	}
}

// troupe stop: one line with nothing running; with a chat attached it asks (refuses off a
// terminal) unless --force.
func TestStopAsksBeforeInterruptingAChat(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	if r := troupe(t, repo, env, "stop"); r.code != 0 || strings.Count(strings.TrimSpace(r.stdout), "\n") != 0 || !strings.Contains(r.stdout, "nothing to stop") {
		t.Fatalf("stop with nothing running: exit %d\nstdout: %q\nstderr: %q", r.code, r.stdout, r.stderr)
	}
	model := writeScript(t, repo, `{"turns": [{"text": "hello"}]}`)
	chat, stdin, out, _ := startChat(t, repo, "--sandbox", "off", "--model", model)
	stdin.Write([]byte("hi\n"))
	out.waitFor(t, "hello", 30*time.Second)
	r := troupe(t, repo, env, "stop")
	if r.code != exitFailed || !strings.Contains(r.stderr, "a chat is attached") || !strings.Contains(r.stderr, "--force") {
		t.Fatalf("stop with a chat attached: exit %d\n%s", r.code, r.stderr)
	}
	if chat.ProcessState != nil {
		t.Fatal("the chat ended on a refused stop")
	}
	if r := troupe(t, repo, env, "stop", "--force"); r.code != 0 || !strings.Contains(r.stdout, "stopped the troupe node") {
		t.Fatalf("stop --force: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if code := waitExit(t, chat, 30*time.Second); code == 0 {
		t.Errorf("the chat whose node was stopped exited 0")
	}
}

// A checkout whose .troupe cannot be written keeps its state under $XDG_STATE_HOME, runs and
// resumes as usual, and troupe doctor says where. (Root writes through permissions, so as root
// a file named .troupe is what cannot be written.)
func TestReadOnlyCheckoutKeepsItsStateElsewhere(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state) // this process finds the node where the binary put it
	t.Cleanup(func() { stopBackgroundNode(t, repo) })
	env := testEnv(t, "XDG_STATE_HOME="+state)
	if os.Getuid() == 0 {
		if err := os.WriteFile(filepath.Join(repo, ".troupe"), []byte("not a directory\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		os.Chmod(repo, 0o555)
		t.Cleanup(func() { os.Chmod(repo, 0o755) })
	}
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"expect": "alpha", "text": "read it"}]}`)
	r := troupe(t, repo, env, "run", "--sandbox", "off", "--model", model, "read a.txt")
	if r.code != 0 || !strings.Contains(r.stdout, "read it") {
		t.Fatalf("run in a read-only checkout: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	dir := actors.StateDir(repo)
	if !strings.HasPrefix(dir, filepath.Join(state, "troupe")+"/") {
		t.Fatalf("state in %s, want under %s", dir, state)
	}
	if _, err := os.Stat(filepath.Join(dir, "db")); err != nil {
		t.Errorf("no store under the state directory: %v", err)
	}
	if s := troupe(t, repo, env, "sessions"); !strings.Contains(s.stdout, "done") {
		t.Errorf("the session is not listed: %s%s", s.stdout, s.stderr)
	}
	d := troupe(t, repo, env, "doctor")
	if !strings.Contains(d.stdout+d.stderr, "kept in "+dir) {
		t.Errorf("doctor does not say where the store is (%s):\n%s%s", dir, d.stdout, d.stderr)
	}
}

// The node runs each session with the environment of the client that asked for it, not its
// own: a command found through the second client's PATH runs although the node was started by
// a client without it.
func TestTheNodeUsesEachClientsEnvironment(t *testing.T) {
	repo := newRepo(t, nil)
	first := testEnv(t)
	quick := writeScript(t, repo, `{"turns": [{"text": "started"}]}`)
	if r := troupe(t, repo, first, "run", "--sandbox", "off", "--model", quick, "start the node"); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	node, err := actors.FindNode(repo)
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "troupe-probe"), []byte("#!/bin/sh\necho probe says $PROBE_WORD\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	second := append(slices.Clone(first), "PROBE_WORD=hello") // the same HOME: the same node configuration
	for i, kv := range second {
		if strings.HasPrefix(kv, "PATH=") {
			second[i] = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	os.WriteFile(filepath.Join(repo, "troupe.toml"), []byte("[env]\npass = [\"PROBE_WORD\"]\n"), 0o644)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "troupe-probe"}}]},
		{"expect": "probe says hello", "text": "probed"}]}`)
	r := troupe(t, repo, second, "run", "--mode", "yolo", "--sandbox", "off", "--model", model, "probe")
	if r.code != 0 || !strings.Contains(r.stdout, "probed") {
		t.Fatalf("run with the second client's PATH: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if info, err := actors.FindNode(repo); err != nil || info.PID != node.PID {
		t.Errorf("the first client's node (pid %d) did not serve the second: %+v %v", node.PID, info, err)
	}
}
