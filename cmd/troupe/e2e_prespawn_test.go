package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/prespawn"
	"github.com/troupe-dev/troupe/internal/testwait"
)

// A cold run starts its node while it initialises (cmd/troupe/internal/prespawn): the node
// that serves it is that process, in the project, logging to serve.log, its session recorded.
func TestColdRunIsServedByTheNodeItsInitStarted(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	script := writeScript(t, repo, `{"turns": [{"text": "early answer"}]}`)
	r := troupe(t, repo, env, "run", "--sandbox", "off", "--model", script, "hello")
	if r.code != 0 || !strings.Contains(r.stdout, "early answer") {
		t.Fatalf("run: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	raw, err := os.ReadFile(filepath.Join(repo, ".troupe", "node.json"))
	if err != nil {
		t.Fatalf("no node runs after a cold run: %v", err)
	}
	var info struct{ PID int }
	if err := json.Unmarshal(raw, &info); err != nil {
		t.Fatal(err)
	}
	defer troupe(t, repo, env, "stop", "--force")
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", info.PID))
	if err != nil {
		t.Fatalf("the node (pid %d): %v", info.PID, err)
	}
	if !bytes.Contains(cmdline, []byte("serve\x00"+prespawn.AwaitArg)) {
		t.Errorf("the node runs %q, not the one the run's initialisation started", bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
	}
	if cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", info.PID)); err != nil || cwd != repo {
		t.Errorf("the node works in %q (%v), want the project %s", cwd, err, repo)
	}
	if log, err := os.ReadFile(filepath.Join(repo, ".troupe", "serve.log")); err != nil || !strings.Contains(string(log), "troupe: serving "+repo) {
		t.Errorf("serve.log does not have the node's output: %q (%v)", log, err)
	}
	if s := troupe(t, repo, env, "sessions"); !strings.Contains(s.stdout, " done ") || !strings.Contains(s.stdout, "hello") {
		t.Errorf("the run's session is not recorded:\n%s%s", s.stdout, s.stderr)
	}
}

// A run that needs no node (a usage error) leaves nothing behind: the node its initialisation
// started exits on the closed pipe without touching the project.
func TestUnneededEarlyNodeExits(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	r := troupe(t, repo, env, "run", "--no-such-flag", "hello")
	if r.code != 2 {
		t.Fatalf("run with an unknown flag: exit %d, want 2\nstderr: %s", r.code, r.stderr)
	}
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	testwait.For(t, 30*time.Second, func() error {
		if pids := processesWithEnv("HOME=" + home); len(pids) > 0 {
			return fmt.Errorf("processes of the run still alive: %v", pids)
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(repo, ".troupe")); !os.IsNotExist(err) {
		t.Errorf("the unneeded node touched the project: .troupe %v", err)
	}
}

// In a project whose store exists, the early node opens it while it waits for its orders; a
// run that then needs no node (a usage error) has it close the store again and exit: the lock
// is free at once for the next run, which finds the first run's session.
func TestUnneededEarlyNodeReleasesTheStore(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	script := writeScript(t, repo, `{"turns": [{"text": "first answer"}]}`)
	if r := troupe(t, repo, env, "run", "--sandbox", "off", "--model", script, "hello"); r.code != 0 {
		t.Fatalf("run: exit %d\nstderr: %s", r.code, r.stderr)
	}
	if r := troupe(t, repo, env, "stop", "--force"); r.code != 0 {
		t.Fatalf("stop: exit %d\nstderr: %s", r.code, r.stderr)
	}
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	gone := func() error {
		if pids := processesWithEnv("HOME=" + home); len(pids) > 0 {
			return fmt.Errorf("processes of the runs still alive: %v", pids)
		}
		return nil
	}
	testwait.For(t, 30*time.Second, gone)
	if r := troupe(t, repo, env, "run", "--no-such-flag", "hello"); r.code != 2 {
		t.Fatalf("run with an unknown flag: exit %d, want 2\nstderr: %s", r.code, r.stderr)
	}
	testwait.For(t, 30*time.Second, gone)
	if _, err := os.Stat(filepath.Join(repo, ".troupe", "db", "LOCK")); !os.IsNotExist(err) {
		t.Errorf("the dropped node left the store's lock file: %v", err)
	}
	r := troupe(t, repo, env, "sessions")
	defer troupe(t, repo, env, "stop", "--force")
	if r.code != 0 || !strings.Contains(r.stdout, " done ") || !strings.Contains(r.stdout, "hello") {
		t.Errorf("sessions after the dropped node: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// processesWithEnv lists the live processes (zombies aside) whose environment holds kv.
func processesWithEnv(kv string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		environ, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !bytes.Contains(append([]byte{0}, environ...), []byte("\x00"+kv+"\x00")) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join(d, "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
				continue
			}
		}
		out = append(out, filepath.Base(d))
	}
	return out
}

// The early node starts at the beginning of the client's initialisation, not half-way through
// it: package launch's init runs before reflect's, and so before that of every package that
// uses reflection (encoding/json, fmt and every large dependency).
func TestPrespawnInitRunsEarly(t *testing.T) {
	cmd := exec.Command(troupeBin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("troupe version: %v\n%s", err, out)
	}
	order := map[string]int{}
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "init" {
			n++
			if _, seen := order[f[1]]; !seen {
				order[f[1]] = n
			}
		}
	}
	launch, ok := order["github.com/troupe-dev/troupe/cmd/troupe/internal/prespawn/launch"]
	if !ok {
		t.Fatalf("no init of package launch in the init trace:\n%s", out)
	}
	for _, later := range []string{"reflect", "unicode", "google.golang.org/protobuf/internal/detrand", "github.com/nats-io/nats-server/v2/server"} {
		if at, ok := order[later]; ok && at < launch {
			t.Errorf("%s initialises before package launch (%d < %d): the early node starts that much later", later, at, launch)
		}
	}
}
