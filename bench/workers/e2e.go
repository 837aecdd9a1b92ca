package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// e2eOptions is what -part e2e runs: every binary × agents × placement, runs times each.
type e2eOptions struct {
	bins    []binary
	agents  []int
	places  []string
	runs    []int // per agents count
	slots   int
	timeout time.Duration // one run's limit: past it the run is stopped and what finished counts
	prof    *profiler
}

// binary is a troupe binary under test and the name its rows carry ("before", "after").
type binary struct{ label, path string }

// benchE2E drives real binaries against the scripted provider: a `troupe serve` Node whose
// parent (a `troupe run` attached to it) spawns the agents in one turn, placed locally or on two
// `troupe worker` processes on the nats-server, and a `troupe watch --json` in a process of its
// own. Scenarios of the binaries alternate, so the machine's load falls on each alike.
func benchE2E(o e2eOptions, srv *server, work string) error {
	fmt.Printf("\nend to end: a parent spawning N scripted agents in one turn (troupe serve + troupe run, troupe watch --json;\n"+
		"workers placement: 2 troupe worker × %d slots); runs per agent count %v, medians; a run is stopped after %s\n", o.slots, o.runs, o.timeout)
	var all []*e2eResult
	seq := 0
	for j, n := range o.agents {
		for _, place := range o.places {
			for i := range o.runs[j] {
				for _, b := range o.bins {
					seq++
					dir := filepath.Join(work, fmt.Sprintf("e2e-%d", seq))
					label := fmt.Sprintf("%s-%s-%d-run%d", b.label, place, n, i+1)
					r, err := e2eScenario(o, b, srv, dir, n, place, label)
					if err != nil {
						return fmt.Errorf("%s: %w", label, err)
					}
					r.printRun()
					all = append(all, r)
					os.RemoveAll(dir) // 10,000 sessions' stores add up
				}
			}
		}
	}
	printSummary(all, o)
	return nil
}

// e2eScenario runs one scenario in a fresh repository and home (a project of its own: its own
// Node store and, on the nats-server, its own task stream).
func e2eScenario(o e2eOptions, b binary, srv *server, dir string, agents int, place, label string) (*e2eResult, error) {
	repo, home := filepath.Join(dir, "repo"), filepath.Join(dir, "home")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		return nil, err
	}
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("alpha "+label+"\n"), 0o644)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "first " + label}} {
		if err := gitRun(repo, args...); err != nil {
			return nil, err
		}
	}
	os.MkdirAll(filepath.Join(home, ".config", "troupe"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "troupe", "config.toml"),
		[]byte(fmt.Sprintf("[agents]\nmax_running = %d\n", agents)), 0o644)
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TROUPE_NODE_IDLE=10m"}
	if e := o.prof.env(); e != "" {
		env = append(env, e)
	}
	calls := make([]string, agents)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"name": "spawn_agent", "args": {"task_name": "t%05d", "agent_type": "explorer", "message": "report %d"}}`, i, i)
	}
	script := filepath.Join(dir, "spawn.json")
	os.WriteFile(script, []byte(`{"turns": [{"tool_calls": [`+strings.Join(calls, ",")+`]},
		{"expect": "Subagent results", "text": "all agents reported"}],
		"agents": {"*": {"turns": [{"text": "child reporting"}]}}}`), 0o644)
	run := []string{"run", "--json", "--mode", "yolo", "--sandbox", "off", "--context-window", "50000000",
		"--model", "scripted:" + script, "--placement", place}
	serve := []string{"serve", "--sandbox", "off"}
	if place == "workers" {
		env = append(env, "TROUPE_NATS="+srv.url) // watch takes the bus from the environment
		run = append(run, "--nats", srv.url)
		serve = append(serve, "--nats", srv.url)
	}
	run = append(run, "spawn the agents")

	r := &e2eResult{bin: b.label, place: place, agents: agents, loadBefore: loadAvg()}
	mem := newSampler()
	var procs []*proc
	defer func() {
		for i := len(procs) - 1; i >= 0; i-- {
			procs[i].stop()
		}
	}()
	if place == "workers" {
		for i := range 2 {
			name := fmt.Sprintf("w%d", i+1)
			w, _, err := startProc(b.path, repo, env, "troupe: worker "+name+" serving", "worker", "--nats", srv.url, "--name", name,
				"--slots", strconv.Itoa(o.slots), "--repo-cache", filepath.Join(dir, "cache-"+name), "--sandbox", "off")
			if err != nil {
				return nil, err
			}
			procs = append(procs, w)
			mem.watch(name, w.cmd.Process.Pid)
		}
	}
	node, _, err := startProc(b.path, repo, env, "troupe: serving", serve...)
	if err != nil {
		return nil, err
	}
	procs = append(procs, node)
	mem.watch("node", node.cmd.Process.Pid)
	watch, lines, err := startProc(b.path, repo, env, "", "watch", "--json")
	if err != nil {
		return nil, err
	}
	procs = append(procs, watch)
	mem.watch("watch", watch.cmd.Process.Pid)
	time.Sleep(time.Second) // the watcher subscribes; a late one misses only the first events, not the spawns

	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.path, run...)
	cmd.Dir, cmd.Env = repo, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	mem.watch("run", cmd.Process.Pid)
	o.prof.cpu(label)
	err = cmd.Wait()
	r.wall = time.Since(start)
	if ctx.Err() != nil {
		r.timedOut = true
	} else if err != nil {
		return nil, fmt.Errorf("troupe run: %v: %s", err, lastLines(stderr.String(), 5))
	}
	lines.settle(2*time.Second, time.Minute)
	o.prof.allocs(label)
	r.mem = mem.finish()
	r.loadAfter = loadAvg()
	r.read(stdout.Bytes(), lines.all())
	return r, nil
}

// read takes the root session from the run's first line and the figures from the watcher's.
func (r *e2eResult) read(out []byte, lines []stamped) {
	var root string
	if line, _, _ := bytes.Cut(out, []byte("\n")); len(line) > 0 {
		var e messages.Envelope
		if json.Unmarshal(line, &e) == nil {
			root = e.Session
		}
	}
	spawned, started := map[string]time.Time{}, map[string]time.Time{}
	seen := map[string]bool{}
	var first, last, firstSpawn, lastFinish time.Time
	for _, l := range lines {
		var e messages.Envelope
		if json.Unmarshal([]byte(l.text), &e) != nil || root == "" || (e.Session != root && e.Parent != root) {
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
			if firstSpawn.IsZero() {
				firstSpawn = e.TS
			}
		case e.Type == messages.EventAgentFinished:
			r.finished++
			lastFinish = e.TS
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
	if !firstSpawn.IsZero() && lastFinish.After(firstSpawn) {
		r.agentSpan = lastFinish.Sub(firstSpawn)
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}
