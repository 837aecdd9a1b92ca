package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// End-to-end tests of serve, run --detach, attach and watch, with the real binary.

// pollFor polls cond until it holds, or fails the test saying what it waited for.
func pollFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, d, cond, what)
}

// startServe starts troupe serve in repo and waits for its "serving" line.
func startServe(t *testing.T, repo string, env []string) (*exec.Cmd, *lineWatcher, *strings.Builder) {
	t.Helper()
	cmd, out, stderr := startTroupe(t, repo, env, "serve", "--sandbox", "off")
	out.waitFor(t, "troupe: serving", 60*time.Second)
	return cmd, out, stderr
}

var sessionIDLine = regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{6}\n$`)

// detach runs troupe run --detach and returns the session id it printed.
func detach(t *testing.T, repo string, env []string, model, task string) string {
	t.Helper()
	r := troupe(t, repo, env, "run", "--detach", "--mode", "yolo", "--sandbox", "off", "--model", model, task)
	if r.code != 0 {
		t.Fatalf("run --detach: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if !sessionIDLine.MatchString(r.stdout) {
		t.Fatalf("run --detach printed %q on stdout, want one session id line", r.stdout)
	}
	return strings.TrimSpace(r.stdout)
}

// busTap is another process's view of the bus: a plain nats.go client that read node.json.
type busTap struct {
	nc  *nats.Conn
	ns  string
	mu  sync.Mutex
	raw []string
}

func tapBus(t *testing.T, repo string) *busTap {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, ".troupe", "node.json"))
	if err != nil {
		t.Fatal(err)
	}
	var info struct{ URL, Creds, NS string }
	if err := json.Unmarshal(data, &info); err != nil {
		t.Fatalf("node.json: %v\n%s", err, data)
	}
	// The tap reads and publishes events, as a worker may (docs/WORKERS.md).
	auth, err := nats.NkeyOptionFromSeed(filepath.Join(info.Creds, "worker.nk"))
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(info.URL, auth)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	b := &busTap{nc: nc, ns: info.NS}
	if _, err := nc.Subscribe("troupe."+info.NS+".evt.>", func(m *nats.Msg) {
		b.mu.Lock()
		b.raw = append(b.raw, string(m.Data))
		b.mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return b
}

// of returns the raw envelopes seen for one session, in order.
func (b *busTap) of(session string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, r := range b.raw {
		if strings.Contains(r, `"session":"`+session+`"`) {
			out = append(out, r)
		}
	}
	return out
}

func (b *busTap) saw(session string, typ messages.EventType) bool {
	for _, r := range b.of(session) {
		if strings.Contains(r, `"type":"`+string(typ)+`"`) {
			return true
		}
	}
	return false
}

// publish sends one envelope as a session on the bus would.
func (b *busTap) publish(t *testing.T, seq uint64, who string, typ messages.EventType, data any) {
	t.Helper()
	f := append(strings.Fields(who), "", "")
	raw, _ := json.Marshal(data)
	env, _ := json.Marshal(&messages.Envelope{V: 1, Seq: seq, TS: time.Now().UTC(), NS: b.ns, Session: f[0], Agent: f[1],
		Parent: f[2], Type: typ, Data: raw})
	if err := b.nc.Publish(messages.EventSubject(b.ns, f[0], typ), env); err != nil {
		t.Fatal(err)
	}
	b.nc.Flush()
}

// probe publishes a marker event until a watcher shows it, so the test knows the watcher is
// subscribed before the run it watches starts.
func (b *busTap) probe(t *testing.T, w *lineWatcher, session string) {
	t.Helper()
	var seq uint64
	pollFor(t, 60*time.Second, "the watcher to subscribe", func() bool {
		seq++
		b.publish(t, seq, session+" root", messages.EventSessionStarted, &messages.SessionStartedData{Model: "probe"})
		time.Sleep(100 * time.Millisecond)
		return strings.Contains(w.text(), ui.ShortID(session)) // the lines view shows the short id
	})
}

// stopBackgroundNode stops a node this test started in the background (through run --detach).
func stopBackgroundNode(t *testing.T, repo string) {
	info, err := actors.FindNode(repo)
	if err != nil {
		return
	}
	syscall.Kill(info.PID, syscall.SIGTERM)
	deadline := time.Now().Add(testwait.Scale(20 * time.Second))
	for actors.ProcessAlive(info.PID) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if actors.ProcessAlive(info.PID) {
		syscall.Kill(info.PID, syscall.SIGKILL)
		t.Errorf("the background node (pid %d) did not stop on SIGTERM", info.PID)
	}
}

// serve + run --detach + attach: the detached run prints only the session id and exits; attach
// follows the session to its end and exits with its outcome.
func TestServeDetachAttachFollowsToTheEnd(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	serve, _, serr := startServe(t, repo, env)
	model := writeScript(t, repo, `{"turns": [
		{"delay_ms": 3000, "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"expect": "alpha", "text": "detached answer"}]}`)
	id := detach(t, repo, env, model, "read a.txt")
	a := troupe(t, repo, env, "attach", id)
	if a.code != 0 {
		t.Fatalf("attach: exit %d\nstdout: %s\nstderr: %s", a.code, a.stdout, a.stderr)
	}
	if !strings.Contains(a.stderr, "running") {
		t.Errorf("attach did not find the session running (the first turn waits 3s):\n%s", a.stderr)
	}
	for _, want := range []string{"→ read_file a.txt", "✓", "detached answer"} {
		if !strings.Contains(a.stdout, want) {
			t.Errorf("attach output lacks %q:\n%s", want, a.stdout)
		}
	}
	if n := strings.Count(a.stdout, "detached answer"); n != 1 {
		t.Errorf("the answer printed %d times:\n%s", n, a.stdout)
	}
	// Attaching to the finished session again replays it from the store, with the same code.
	again := troupe(t, repo, env, "attach", id[len(id)-6:])
	if again.code != 0 || !strings.Contains(again.stdout, "→ read_file a.txt") || !strings.Contains(again.stdout, "detached answer") {
		t.Errorf("attach after the end: exit %d\nstdout: %s\nstderr: %s", again.code, again.stdout, again.stderr)
	}
	serve.Process.Signal(os.Interrupt)
	if code := waitExit(t, serve, 30*time.Second); code != 0 {
		t.Errorf("serve exit %d: %s", code, serr.String())
	}
	if _, err := os.Stat(filepath.Join(repo, ".troupe", "node.json")); !os.IsNotExist(err) {
		t.Errorf("node.json left behind by serve: %v", err)
	}
}

// With no node running, run --detach starts one in the background; the session goes on with no
// client attached (attach detached with Ctrl-C), and a later attach prints its answer.
func TestDetachResultsSurviveTheTerminal(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	t.Cleanup(func() { stopBackgroundNode(t, repo) })
	model := writeScript(t, repo, `{"turns": [
		{"text": "first turn", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"delay_ms": 2500, "text": "survived answer"}]}`)
	id := detach(t, repo, env, model, "read a.txt slowly")
	if _, err := os.Stat(filepath.Join(repo, ".troupe", "serve.log")); err != nil {
		t.Errorf("no serve.log: %v", err)
	}

	att, out, aerr := startTroupe(t, repo, env, "attach", id)
	out.waitFor(t, "✓", 30*time.Second)
	att.Process.Signal(os.Interrupt)
	if code := waitExit(t, att, 30*time.Second); code != exitInterrupted || !strings.Contains(aerr.String(), "detached") {
		t.Errorf("Ctrl-C on attach: exit %d\n%s", code, aerr.String())
	}

	pollFor(t, 60*time.Second, "the session to finish with no client attached", func() bool {
		r := troupe(t, repo, env, "sessions")
		return strings.Contains(lineOf2(r.stdout, id), "done")
	})
	r := troupe(t, repo, env, "attach", id)
	if r.code != 0 {
		t.Fatalf("attach: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"first turn", "→ read_file a.txt", "survived answer"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("attach lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "finished: done") {
		t.Errorf("attach does not say the session finished:\n%s", r.stderr)
	}
}

// lineOf2 is the line of out that contains s.
func lineOf2(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// troupe watch, piped, prints one plain line per agent state change: a real run's with a
// subagent, and a subagent tree's published on the bus by another process.
func TestWatchPipedShowsAgentLines(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	startServe(t, repo, env)
	bus := tapBus(t, repo)
	_, wout, _ := startTroupe(t, repo, env, "watch")
	bus.probe(t, wout, "20250301-000000-0bbe00")

	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "verify_retries", "agent_type": "explorer", "message": "read a.txt"}}]},
		{"expect": "Subagent results", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "watched answer"}],
	"agents": {"verify_retries": {"turns": [
		{"delay_ms": 200, "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "alpha is at a.txt:1"}]}}}`)
	id := detach(t, repo, env, model, "read a.txt")
	root := ui.ShortID(id)
	wout.waitFor(t, root+" root - tool spawn_agent verify_retries", 60*time.Second)
	wout.waitFor(t, root+" root/verify_retries explorer tool read_file a.txt", 60*time.Second)
	wout.waitFor(t, root+" root/verify_retries explorer done", 60*time.Second)
	wout.waitFor(t, root+" root - tool read_file a.txt", 60*time.Second)
	wout.waitFor(t, root+" root - done · 3 turns", 60*time.Second)

	const parent, child = "20250301-000000-f00001", "20250301-000001-f00002"
	bus.publish(t, 1, parent+" root", messages.EventSessionStarted, &messages.SessionStartedData{Model: "m", Task: "fix"})
	bus.publish(t, 2, parent+" root", messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/verify_retries",
		Session: child, Role: "verifier", State: messages.AgentRunning, Task: "verify"})
	bus.publish(t, 1, child+" root/verify_retries "+parent, messages.EventSessionStarted, &messages.SessionStartedData{Role: "verifier"})
	bus.publish(t, 2, child+" root/verify_retries "+parent, messages.EventToolStarted, &messages.ToolCallData{CallID: "c1",
		Tool: "bash", Summary: "bash go test ./..."})
	bus.publish(t, 3, parent+" root", messages.EventAgentFinished, &messages.AgentResult{Handle: "root/verify_retries",
		Session: child, Role: "verifier", Status: messages.AgentCancelled})
	wout.waitFor(t, "f00001 root/verify_retries verifier tool bash go test ./...", 30*time.Second)
	wout.waitFor(t, "f00001 root/verify_retries verifier cancelled", 30*time.Second)
	if strings.Contains(wout.text(), "\x1b") {
		t.Errorf("ANSI codes in piped output:\n%q", wout.text())
	}
}

// A second process with the plain nats.go client (node.json's URL and token) sees exactly the
// envelopes troupe watch --json prints for a run, byte for byte.
func TestWatchJSONMatchesAPlainNATSClient(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	startServe(t, repo, env)
	bus := tapBus(t, repo)
	_, wout, _ := startTroupe(t, repo, env, "watch", "--json")
	bus.probe(t, wout, "20250301-000000-0bbe00")

	model := writeScript(t, repo, `{"turns": [
		{"text": "looking", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "compared answer"}]}`)
	id := detach(t, repo, env, model, "read a.txt")
	pollFor(t, 60*time.Second, "both to see session.finished", func() bool {
		return bus.saw(id, messages.EventSessionFinished) && strings.Contains(wout.text(), `"session":"`+id+`","agent":"root","type":"session.finished"`)
	})
	var watched []string
	for _, l := range strings.Split(wout.text(), "\n") {
		if strings.Contains(l, `"session":"`+id+`"`) {
			watched = append(watched, l)
		}
	}
	tapped := bus.of(id)
	if !slices.Equal(watched, tapped) {
		t.Errorf("watch --json printed %v\nthe NATS client saw %v", seqTypes(t, watched), seqTypes(t, tapped))
	}
	envs := envelopes(t, strings.Join(watched, "\n"))
	checkEnvelopes(t, envs)
	if envs[0].Seq != 1 || envs[0].Type != messages.EventSessionStarted {
		t.Errorf("the run's events do not start at seq 1 with session.started: %v", seqTypes(t, watched))
	}
}

func seqTypes(t *testing.T, raw []string) []string {
	var out []string
	for _, e := range envelopes(t, strings.Join(raw, "\n")) {
		out = append(out, fmt.Sprintf("%d:%s", e.Seq, e.Type))
	}
	return out
}

// One node per project: a second serve says which process runs it and exits 2. Attach to an
// unknown session is a usage error with a hint.
func TestServeRefusesASecondServe(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	serve, _, _ := startServe(t, repo, env)
	r := troupe(t, repo, env, "serve")
	if r.code != exitUsage || !strings.Contains(r.stderr, fmt.Sprintf("pid %d", serve.Process.Pid)) {
		t.Errorf("second serve: exit %d\n%s", r.code, r.stderr)
	}
	a := troupe(t, repo, env, "attach", "no-such-session")
	if a.code != exitUsage || !strings.Contains(a.stderr, "troupe sessions") {
		t.Errorf("attach unknown: exit %d\n%s", a.code, a.stderr)
	}
}

// SIGTERM stops serve cleanly: the running session records itself as interrupted, and attach
// reports that with exit 130.
func TestServeSIGTERMInterruptsSessions(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	serve, _, serr := startServe(t, repo, env)
	bus := tapBus(t, repo)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "sleep 60"}}]},
		{"text": "never"}]}`)
	id := detach(t, repo, env, model, "wait")
	pollFor(t, 60*time.Second, "the tool to start", func() bool { return bus.saw(id, messages.EventToolStarted) })
	serve.Process.Signal(syscall.SIGTERM)
	if code := waitExit(t, serve, 30*time.Second); code != 0 {
		t.Fatalf("serve exit %d: %s", code, serr.String())
	}
	if !bus.saw(id, messages.EventSessionFinished) {
		t.Errorf("no session.finished before the node stopped: %v", seqTypes(t, bus.of(id)))
	}
	a := troupe(t, repo, env, "attach", id)
	if a.code != exitInterrupted || !strings.Contains(a.stderr, "troupe resume") {
		t.Errorf("attach to the interrupted session: exit %d\n%s\n%s", a.code, a.stdout, a.stderr)
	}
	if !strings.Contains(a.stdout, "→ bash sleep 60") {
		t.Errorf("attach did not replay the cut-off call:\n%s", a.stdout)
	}
}

// Two run --detach at once with no node running both start a background serve; one node wins
// and serves both sessions.
func TestConcurrentDetachesShareOneNode(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	t.Cleanup(func() { stopBackgroundNode(t, repo) })
	model := writeScript(t, repo, `{"turns": [{"text": "shared answer"}]}`)
	ids := make([]string, 2)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			r := troupe(t, repo, env, "run", "--detach", "--model", model, fmt.Sprintf("task %d", i))
			if r.code != 0 || !sessionIDLine.MatchString(r.stdout) {
				t.Errorf("run --detach %d: exit %d\nstdout: %q\nstderr: %s", i, r.code, r.stdout, r.stderr)
			}
			ids[i] = strings.TrimSpace(r.stdout)
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, id := range ids {
		if r := troupe(t, repo, env, "attach", id); r.code != 0 || !strings.Contains(r.stdout, "shared answer") {
			t.Errorf("attach %s: exit %d\n%s\n%s", id, r.code, r.stdout, r.stderr)
		}
	}
}
