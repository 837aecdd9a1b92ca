package tools

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func bashArgsJSON(command string, extra map[string]any) string {
	m := map[string]any{"command": command}
	for k, v := range extra {
		m[k] = v
	}
	data, _ := json.Marshal(m)
	return string(data)
}

// processGone reports whether pid has exited (a zombie counts: it no longer runs).
func processGone(pid int) bool {
	state, _, ok := procState(strconv.Itoa(pid))
	return !ok || state == 'Z' || state == 'X'
}

// pidsIn returns the numbers printed on lines "pid=N".
func pidsIn(t *testing.T, out string) []int {
	t.Helper()
	var pids []int
	for _, m := range regexp.MustCompile(`pid=(\d+)`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		pids = append(pids, n)
	}
	return pids
}

func TestBashExitAndOutput(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{"here.txt": ""})
	tests := []struct {
		name, command string
		isError       bool
		want          []string
	}{
		{"success", "echo hello", false, []string{"hello\n[exit code 0]"}},
		{"runs in the root", "ls", false, []string{"here.txt"}},
		{"exit code", "echo oops; exit 3", true, []string{"oops\n[exit code 3]"}},
		{"stderr combined", "echo out; echo err >&2", false, []string{"out\n", "err\n"}},
		{"no trailing newline", "printf abc", false, []string{"abc\n[exit code 0]"}},
		{"killed by signal", "kill -9 $$", true, []string{"[killed by signal"}},
		{"stdin is empty", "cat; echo after", false, []string{"after"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, env, "bash", bashArgsJSON(tc.command, nil))
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, tc.isError, res.Output)
			}
			mustContain(t, res.Output, tc.want...)
		})
	}
}

func TestBashTimeoutKillsTheGroup(t *testing.T) {
	env := newEnv(t)
	res := call(t, env, "bash", bashArgsJSON(`sleep 100 & echo pid=$!; echo pid=$$; sleep 100`, map[string]any{"timeout_s": 1}))
	if !res.IsError {
		t.Fatalf("a timeout must be an error: %s", res.Output)
	}
	mustContain(t, res.Output, "[timed out after 1s; the process group was killed]")
	pids := pidsIn(t, res.Output)
	if len(pids) != 2 {
		t.Fatalf("want the two pids printed, got %v in %q", pids, res.Output)
	}
	for _, pid := range pids {
		checkFor(t, 5*time.Second, func() bool { return processGone(pid) }, "pid "+strconv.Itoa(pid)+" to be gone")
	}
}

func TestBashOrphanDoesNotHangTheCall(t *testing.T) {
	env := newEnv(t)
	// The subshell forks a sleep that inherits the output pipe, then exits at once.
	res := call(t, env, "bash", bashArgsJSON(`(sleep 100 & echo pid=$!); echo done`, nil))
	if res.IsError {
		t.Fatalf("unexpected error: %s", res.Output)
	}
	mustContain(t, res.Output, "done\n[exit code 0]", "left running were stopped")
	pids := pidsIn(t, res.Output)
	if len(pids) != 1 {
		t.Fatalf("want one pid, got %v", pids)
	}
	checkFor(t, 5*time.Second, func() bool { return processGone(pids[0]) }, "the orphan to be killed with the group")
}

func TestBashEscapedProcessDoesNotHangTheCall(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid not installed")
	}
	env := newEnv(t)
	// setsid leaves the process group, so it is not ours to kill; it still holds the pipe.
	res := call(t, env, "bash", bashArgsJSON(`setsid sleep 100 & echo pid=$!`, nil))
	for _, pid := range pidsIn(t, res.Output) {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
	mustContain(t, res.Output, "[exit code 0]")
}

func TestBashCancel(t *testing.T) {
	env := newEnv(t)
	flag := filepath.Join(env.TempDir, "started")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		done <- builtinRegistry(t).Execute(ctx, env, Call{Name: "bash", Args: bashArgsJSON("touch "+flag+"; sleep 100", nil)})
	}()
	checkFor(t, 10*time.Second, func() bool { _, err := os.Stat(flag); return err == nil }, "the command to start")
	cancel()
	res := <-done
	if !res.IsError {
		t.Fatalf("a cancelled command must be an error: %s", res.Output)
	}
	mustContain(t, res.Output, "[killed: the call was cancelled]")
}

func TestBashHugeOutputBounded(t *testing.T) {
	env := newEnv(t)
	res := call(t, env, "bash", bashArgsJSON("seq 1 200000", nil))
	if res.IsError {
		t.Fatal(res.Output)
	}
	if len(res.Output) > DefaultMaxResultBytes {
		t.Errorf("output is %d bytes, over the %d budget", len(res.Output), DefaultMaxResultBytes)
	}
	if !strings.HasPrefix(res.Output, "1\n2\n3\n") {
		t.Errorf("the head is missing: %.40q", res.Output)
	}
	mustContain(t, res.Output, "\n199999\n200000\n[exit code 0]", "lines dropped")
	m := regexp.MustCompile(`… (\d+) lines dropped \((\d+) bytes\) …`).FindStringSubmatch(res.Output)
	if m == nil {
		t.Fatalf("no drop marker in output")
	}
	kept := strings.Count(res.Output, "\n") - 1 // every kept line ends in a newline, and so does the marker
	if dropped, _ := strconv.Atoi(m[1]); dropped+kept != 200000 {
		t.Errorf("dropped %d + kept %d lines != 200000", dropped, kept)
	}
}

func TestBashEnvironmentIsExplicit(t *testing.T) {
	t.Setenv("TROUPE_TEST_SECRET", "leaked")
	env := newEnv(t)
	res := call(t, env, "bash", bashArgsJSON(`echo "[${TROUPE_TEST_SECRET:-unset}] tmp=$TMPDIR term=$TERM"`, nil))
	mustContain(t, res.Output, "[unset]", "tmp="+env.TempDir, "term=dumb")

	env.Environ = []string{"PATH=" + os.Getenv("PATH"), "ONLY_THIS=yes"}
	res = call(t, env, "bash", bashArgsJSON(`echo "[$ONLY_THIS] [${HOME:-nohome}] [${TROUPE_TEST_SECRET:-unset}]"`, nil))
	mustContain(t, res.Output, "[yes] [nohome] [unset]")
}

// recordingSandbox marks the commands it wraps.
type recordingSandbox struct{ wrapped *int }

func (s recordingSandbox) Wrap(cmd *exec.Cmd, env *Env) error {
	*s.wrapped++
	cmd.Env = append(cmd.Env, "SANDBOXED=1")
	return nil
}

func TestBashUsesTheSandbox(t *testing.T) {
	env := newEnv(t)
	wrapped := 0
	env.Sandbox = recordingSandbox{wrapped: &wrapped}
	res := call(t, env, "bash", bashArgsJSON(`echo "sandboxed=$SANDBOXED"`, nil))
	if wrapped != 1 {
		t.Errorf("Wrap called %d times, want 1", wrapped)
	}
	mustContain(t, res.Output, "sandboxed=1")
}

func TestBashTimeoutClamped(t *testing.T) {
	res := call(t, newEnv(t), "bash", bashArgsJSON("true", map[string]any{"timeout_s": 1000}))
	mustContain(t, res.Output, "timeout_s 1000 is over the maximum; used 600", "[exit code 0]")
}

func TestBashBackground(t *testing.T) {
	env := newEnv(t)
	res := call(t, env, "bash", bashArgsJSON(`echo bg-started; sleep 100`, map[string]any{"background": true}))
	if res.IsError {
		t.Fatal(res.Output)
	}
	jobs := env.Jobs()
	if len(jobs) != 1 || !jobs[0].Running {
		t.Fatalf("Jobs() = %+v, want one running job", jobs)
	}
	job := jobs[0]
	mustContain(t, res.Output, "pid "+strconv.Itoa(job.PID), job.LogPath)
	if filepath.Dir(job.LogPath) != env.TempDir {
		t.Errorf("log %s is not under the session temp dir %s", job.LogPath, env.TempDir)
	}
	checkFor(t, 10*time.Second, func() bool {
		data, _ := os.ReadFile(job.LogPath)
		return strings.Contains(string(data), "bg-started")
	}, "the job's output in its log")

	if err := env.Close(); err != nil {
		t.Fatal(err)
	}
	if jobs := env.Jobs(); jobs[0].Running {
		t.Errorf("job still running after Close: %+v", jobs[0])
	}
	checkFor(t, 5*time.Second, func() bool { return processGone(job.PID) }, "the job's process to be gone")
	res = call(t, env, "bash", bashArgsJSON(`sleep 1`, map[string]any{"background": true}))
	if !res.IsError {
		t.Errorf("a closed Env must refuse new jobs: %s", res.Output)
	}
}
