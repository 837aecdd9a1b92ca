package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// benchE2E drives the real binary against the scripted provider: a parent that spawns agents
// children in one turn, run once with local placement (a `troupe serve` node) and once with
// workers placement (two `troupe worker` processes on the nats-server), a `troupe watch --json`
// in a process of its own each time. It prints spawn → the child's first model request
// (agent.spawned to the child's first turn.started, as the watcher saw them), the peak memory
// of each process and the events per second the watcher received.
func benchE2E(bin string, srv *server, work string, agents, slots int) error {
	if bin == "" {
		bin = filepath.Join(work, "troupe")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/troupe").CombinedOutput(); err != nil {
			return fmt.Errorf("build: %v\n%s", err, out)
		}
	}
	repo := filepath.Join(work, "e2erepo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		return err
	}
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("alpha\n"), 0o644)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		if err := gitRun(repo, args...); err != nil {
			return err
		}
	}
	home := filepath.Join(work, "e2ehome")
	os.MkdirAll(filepath.Join(home, ".config", "troupe"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "troupe", "config.toml"),
		[]byte(fmt.Sprintf("[agents]\nmax_running = %d\n", agents)), 0o644)
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TROUPE_NODE_IDLE=10m"}
	calls := make([]string, agents)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"name": "spawn_agent", "args": {"task_name": "t%05d", "agent_type": "explorer", "message": "report %d"}}`, i, i)
	}
	script := filepath.Join(work, "spawn.json")
	os.WriteFile(script, []byte(`{"turns": [{"tool_calls": [`+strings.Join(calls, ",")+`]},
		{"expect": "Subagent results", "text": "all agents reported"}],
		"agents": {"*": {"turns": [{"text": "child reporting"}]}}}`), 0o644)
	run := []string{"run", "--json", "--mode", "yolo", "--sandbox", "off", "--context-window", "50000000", "--model", "scripted:" + script}

	fmt.Printf("\nend to end: a parent spawning %d scripted agents in one turn (troupe run, watch --json)\n", agents)
	// Local: a background node, the watcher on it, the run attached to it.
	serve, _, err := startProc(bin, repo, env, "troupe: serving", "serve", "--sandbox", "off")
	if err != nil {
		return err
	}
	local, err := e2eRun(bin, repo, env, append(run, "--placement", "local", "spawn the agents"))
	serveRSS := peakKiB(serve.cmd.Process.Pid)
	serve.stop()
	if err != nil {
		return err
	}
	local.print("local placement", map[string]int64{"node (troupe serve)": serveRSS})

	// Workers: two troupe worker processes on the nats-server.
	var workers []*proc
	for i := range 2 {
		name := fmt.Sprintf("w%d", i+1)
		w, _, err := startProc(bin, repo, env, "troupe: worker "+name+" serving", "worker", "--nats", srv.url, "--name", name,
			"--slots", strconv.Itoa(slots), "--repo-cache", filepath.Join(work, "e2ecache-"+name), "--sandbox", "off")
		if err != nil {
			return err
		}
		defer w.stop()
		workers = append(workers, w)
	}
	// watch takes the bus from TROUPE_NATS (it has no --nats flag of its own).
	remote, err := e2eRun(bin, repo, append(env, "TROUPE_NATS="+srv.url), append(run, "--placement", "workers", "--nats", srv.url, "spawn the agents"))
	if err != nil {
		return err
	}
	mem := map[string]int64{}
	for i, w := range workers {
		mem[fmt.Sprintf("worker w%d", i+1)] = peakKiB(w.cmd.Process.Pid)
	}
	remote.print(fmt.Sprintf("workers placement (2 workers × %d slots)", slots), mem)
	return nil
}

// e2eResult is what one scenario measured.
type e2eResult struct {
	firstRequest []time.Duration // per child: agent.spawned → its first turn.started
	runRSS       int64           // the run process's peak RSS, KiB
	watchRSS     int64
	events       int
	span         time.Duration // first to last event the watcher got of the run's tree
	wall         time.Duration
	sessions     int
}

func (r *e2eResult) print(what string, mem map[string]int64) {
	fmt.Printf("  %s: %d sessions seen by the watcher, run took %s\n", what, r.sessions, ms(r.wall))
	fmt.Printf("    spawn → first model request  median %s  (p90 %s)\n", ms(median(r.firstRequest)), ms(pct(r.firstRequest, 90)))
	fmt.Printf("    events to one watcher        %.0f/s (%d events in %s)\n", float64(r.events)/r.span.Seconds(), r.events, ms(r.span))
	fmt.Printf("    peak RSS: run %s, watch %s", kib(r.runRSS<<10), kib(r.watchRSS<<10))
	for name, k := range mem {
		fmt.Printf(", %s %s", name, kib(k<<10))
	}
	fmt.Println()
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	median(ds) // sorts
	return ds[min(len(ds)-1, len(ds)*p/100)]
}

// e2eRun starts a watcher (env points it at the bus), runs the parent, and reads the
// watcher's lines until the run's whole tree has finished.
func e2eRun(bin, repo string, env, args []string) (*e2eResult, error) {
	watch, lines, err := startProc(bin, repo, env, "", "watch", "--json")
	if err != nil {
		return nil, err
	}
	defer watch.stop()
	time.Sleep(time.Second) // the watcher subscribes; a late one misses only the first events, not the spawns
	start := time.Now()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = repo, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	// The run may have started a background node of its own (troupe serve): stop it.
	defer func() {
		stop := exec.Command(bin, "stop", "--force")
		stop.Dir, stop.Env = repo, env
		_ = stop.Run()
	}()
	if err != nil {
		return nil, fmt.Errorf("troupe %s: %v: %s", strings.Join(args[:2], " "), err, stderr.String())
	}
	r := &e2eResult{wall: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.runRSS = ru.Maxrss
	}
	var root string
	if line, _, ok := bytes.Cut(out, []byte("\n")); ok || len(line) > 0 {
		var e messages.Envelope
		if json.Unmarshal(line, &e) == nil {
			root = e.Session
		}
	}
	time.Sleep(2 * time.Second) // the last events reach the watcher
	r.watchRSS = peakKiB(watch.cmd.Process.Pid)
	spawned, started := map[string]time.Time{}, map[string]time.Time{}
	seen := map[string]bool{}
	var first, last time.Time
	for _, l := range lines.all() {
		var e messages.Envelope
		if json.Unmarshal([]byte(l.text), &e) != nil || (e.Session != root && e.Parent != root) {
			continue
		}
		seen[e.Session] = true
		r.events++
		if first.IsZero() {
			first = l.at
		}
		last = l.at
		switch {
		case e.Type == messages.EventAgentSpawned:
			var d messages.AgentSpawnedData
			if json.Unmarshal(e.Data, &d) == nil {
				if _, ok := spawned[d.Session]; !ok {
					spawned[d.Session] = e.TS
				}
			}
		case e.Type == messages.EventTurnStarted && e.Session != root:
			if _, ok := started[e.Session]; !ok {
				started[e.Session] = e.TS
			}
		}
	}
	for s, t := range spawned {
		if st, ok := started[s]; ok {
			r.firstRequest = append(r.firstRequest, st.Sub(t))
		}
	}
	r.sessions, r.span = len(seen), last.Sub(first)
	return r, nil
}

// proc is a long-running troupe process and the lines it prints.
type proc struct {
	cmd *exec.Cmd
}

func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

type stamped struct {
	at   time.Time
	text string
}

type lineLog struct {
	mu    sync.Mutex
	lines []stamped
}

func (l *lineLog) all() []stamped {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]stamped(nil), l.lines...)
}

// startProc starts bin args in dir and, when ready is not "", waits until a line contains it.
func startProc(bin, dir string, env []string, ready string, args ...string) (*proc, *lineLog, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	log := &lineLog{}
	up := make(chan struct{})
	var once sync.Once
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Text()
			log.mu.Lock()
			log.lines = append(log.lines, stamped{time.Now(), line})
			log.mu.Unlock()
			if ready != "" && strings.Contains(line, ready) {
				once.Do(func() { close(up) })
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	p := &proc{cmd: cmd}
	if ready == "" {
		return p, log, nil
	}
	select {
	case <-up:
		return p, log, nil
	case <-time.After(2 * time.Minute):
		p.stop()
		return nil, nil, fmt.Errorf("troupe %s did not print %q: %s", args[0], ready, stderr.String())
	}
}

// peakKiB reads a live process's peak resident set (VmHWM) in KiB; 0 when it cannot.
func peakKiB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}
