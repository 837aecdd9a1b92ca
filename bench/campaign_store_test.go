package bench

// The store and liveness campaign (issue 10): kill -9 at random moments during tool calls
// followed by resumes, and dead-node detection, all through the real binary. The counts are
// printed; the invariants (every resume clean, nothing lost, no call run twice) are asserted.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// storeCampaignBinary builds the troupe binary into the test's temporary directory (the build
// cache makes a second build a link step).
func storeCampaignBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "troupe")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/troupe").CombinedOutput(); err != nil {
		t.Fatalf("build troupe: %v\n%s", err, out)
	}
	return bin
}

// campaignRepo is a throwaway git repository.
func campaignRepo(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}

func campaignEnv(t *testing.T) []string {
	env := []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "NO_COLOR=1", "TERM=dumb"}
	for _, k := range []string{"TMPDIR", "TROUPE_TEST_TIMEOUT_SCALE"} {
		if v := os.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// campaignProc is a running troupe whose stdout lines arrive on a channel.
type campaignProc struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *lockedBuffer
	done   chan struct{}
}

// lockedBuffer collects a process's stderr; the test reads it while the process writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startCampaignProc(t *testing.T, bin, dir string, env []string, args ...string) *campaignProc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &campaignProc{cmd: cmd, lines: make(chan string, 1024), stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { // owned by the process: ends when its stdout closes
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-p.done })
	return p
}

// waitLine returns the next line containing want, or "" when the output ends or d passes.
func (p *campaignProc) waitLine(want string, d time.Duration) string {
	timeout := time.After(d)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return ""
			}
			if strings.Contains(line, want) {
				return line
			}
		case <-timeout:
			return ""
		}
	}
}

// exited waits up to d for the process to end.
func (p *campaignProc) exited(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(d):
		return false
	}
}

type killCounts struct {
	runs, cleanResumes, finishedBeforeKill, entriesLost, callsRunTwice, acked int
}

// TestStoreCampaignKill9 kills `troupe run` (its own node) at a random moment during its tool
// calls, resumes the session, and checks every result published before the kill is still in
// the log afterwards and that no call ran twice.
func TestStoreCampaignKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary many times")
	}
	bin := storeCampaignBinary(t)
	repo := campaignRepo(t)
	env := campaignEnv(t)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 10))
	var c killCounts
	for run := 0; run < storeCampaignKills; run++ {
		killAndResume(t, bin, repo, env, run, rng, &c)
	}
	c.callsRunTwice = duplicateLines(t, filepath.Join(repo, "calls.log"))
	report := fmt.Sprintf("kill -9 campaign (seed %d): %d runs, %d killed mid-tool-calls, %d clean resumes, %d results acknowledged before the kill, %d entries lost, %d calls run twice",
		seed, c.runs, c.runs-c.finishedBeforeKill, c.cleanResumes, c.acked, c.entriesLost, c.callsRunTwice)
	fmt.Println(report)
	if c.cleanResumes != c.runs-c.finishedBeforeKill || c.entriesLost != 0 || c.callsRunTwice != 0 {
		t.Fatal(report)
	}
}

const killCalls = 5

func killAndResume(t *testing.T, bin, repo string, env []string, run int, rng *rand.Rand, c *killCounts) {
	t.Helper()
	var turns []string
	for k := 1; k <= killCalls; k++ {
		// The output "ok-R<run>C<k>" appears only in the result, never in the call's arguments.
		cmd := fmt.Sprintf(`printf 'ok-%%s\n' R%dC%d | tee -a calls.log; sleep 0.0%d`, run, k, rng.IntN(8)+1)
		args, _ := json.Marshal(map[string]string{"command": cmd})
		turns = append(turns, fmt.Sprintf(`{"text": "step %d", "tool_calls": [{"name": "bash", "args": %s}]}`, k, args))
	}
	turns = append(turns, fmt.Sprintf(`{"text": "done R%d"}`, run))
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"turns": [`+strings.Join(turns, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c.runs++
	p := startCampaignProc(t, bin, repo, env, "run", "--json", "--mode", "yolo", "--sandbox", "off", "--model", "scripted:"+script, "campaign run")
	first := p.waitLine(`"session.started"`, testwait.Scale(60*time.Second))
	var env0 messages.Envelope
	if err := json.Unmarshal([]byte(first), &env0); err != nil || env0.Session == "" {
		t.Fatalf("run %d: no session.started line (%v)\nstderr: %s", run, err, p.stderr.String())
	}
	id := env0.Session

	// Kill on the k-th tool.started, a random moment later; note results published before.
	killAt, seen := rng.IntN(killCalls)+1, 0
	var acked []string
	for seen < killAt {
		line := p.waitLine(`"tool.`, testwait.Scale(60*time.Second))
		if line == "" {
			break
		}
		if strings.Contains(line, `"tool.started"`) {
			seen++
		}
		if strings.Contains(line, `"tool.finished"`) {
			acked = append(acked, ackedMarker(line))
		}
	}
	time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond) // a random moment inside the call
	if p.exited(0) {
		c.finishedBeforeKill++
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	if !p.exited(testwait.Scale(30 * time.Second)) {
		t.Fatalf("run %d: the killed process did not exit", run)
	}
	for line := range p.lines { // results published between our last read and the kill
		if strings.Contains(line, `"tool.finished"`) {
			acked = append(acked, ackedMarker(line))
		}
	}
	c.acked += len(acked)

	r := startCampaignProc(t, bin, repo, env, "resume", "--json", "--mode", "yolo", "--sandbox", "off", id)
	fin := r.waitLine(`"session.finished"`, testwait.Scale(120*time.Second))
	r.exited(testwait.Scale(30 * time.Second))
	if strings.Contains(fin, `"status":"done"`) && r.cmd.ProcessState != nil && r.cmd.ProcessState.ExitCode() == 0 {
		c.cleanResumes++
	} else {
		t.Logf("run %d: resume of %s not clean: %s\nstderr: %s", run, id, fin, r.stderr.String())
	}
	logCmd := exec.Command(bin, "log", id)
	logCmd.Dir, logCmd.Env = repo, env
	out, err := logCmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run %d: troupe log %s: %v\n%s", run, id, err, out)
	}
	for _, marker := range acked {
		if marker != "" && !strings.Contains(string(out), marker) {
			c.entriesLost++
			t.Logf("run %d: result %q was published before the kill but is not in the log", run, marker)
		}
	}
}

// ackedMarker pulls "ok-R<run>C<k>" out of a tool.finished line.
func ackedMarker(line string) string {
	i := strings.Index(line, "ok-R")
	if i < 0 {
		return ""
	}
	end := i + 4
	for end < len(line) && (line[end] == 'C' || (line[end] >= '0' && line[end] <= '9')) {
		end++
	}
	return line[i:end]
}

// duplicateLines counts lines of path that appear more than once (a call that ran twice).
func duplicateLines(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	seen := map[string]int{}
	dups := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if seen[line]++; seen[line] == 2 {
			dups++
		}
	}
	return dups
}

// TestStoreCampaignDeadNode measures how long an attached client takes to notice that the
// node it follows was killed with -9.
func TestStoreCampaignDeadNode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := storeCampaignBinary(t)
	env := campaignEnv(t)
	var times []time.Duration
	for i := 0; i < storeCampaignDeadNodes; i++ {
		repo := campaignRepo(t)
		serve := startCampaignProc(t, bin, repo, env, "serve", "--sandbox", "off")
		if serve.waitLine("troupe: serving", testwait.Scale(60*time.Second)) == "" {
			t.Fatalf("troupe serve did not come up: %s", serve.stderr.String())
		}
		script := filepath.Join(t.TempDir(), "script.json")
		if err := os.WriteFile(script, []byte(`{"turns": [{"delay_ms": 120000, "text": "never"}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		detach := exec.Command(bin, "run", "--detach", "--model", "scripted:"+script, "wait")
		detach.Dir, detach.Env = repo, env
		out, err := detach.Output()
		if err != nil {
			t.Fatalf("run --detach: %v", err)
		}
		id := strings.TrimSpace(string(out))
		attach := startCampaignProc(t, bin, repo, env, "attach", id)
		testwait.Until(t, 30*time.Second, func() bool { return strings.Contains(attach.stderr.String(), "running") }, "attach to report the session running")
		_ = serve.cmd.Process.Signal(syscall.SIGKILL)
		killed := time.Now()
		if !attach.exited(testwait.Scale(60 * time.Second)) {
			t.Fatalf("the attached client did not notice the dead node within %v", testwait.Scale(60*time.Second))
		}
		times = append(times, time.Since(killed))
	}
	fmt.Printf("dead-node detection: %d trials, times %v\n", len(times), times)
}
