package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// Subagent benchmarks: how long a spawn takes to reach the child's first model call, and what
// a thousand concurrent children cost in wall time, memory and events. They print numbers and
// assert nothing about timings (the machines are shared and noisy); they do fail on lost or
// misnumbered events, and on children that do not finish.

// firstRequestProvider wraps a provider and records when each agent's first request arrived.
// With hold set, the first request of each subagent waits until hold subagents have made
// theirs: they are then all alive at once, as children whose model takes a while would be.
type firstRequestProvider struct {
	llm.Provider
	hold     int
	mu       sync.Mutex
	first    map[string]time.Time // by agent handle
	children int
	released chan struct{} // closed when the hold-th child arrived
	allAt    time.Time
}

func (p *firstRequestProvider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	now := time.Now()
	p.mu.Lock()
	_, seen := p.first[req.Agent]
	if !seen {
		p.first[req.Agent] = now
	}
	wait := !seen && p.hold > 0 && req.Agent != "root" && req.Agent != ""
	if wait {
		p.children++
		if p.children == p.hold {
			p.allAt = now
			close(p.released)
		}
	}
	p.mu.Unlock()
	if wait {
		select {
		case <-p.released:
		case <-ctx.Done():
			return nil, &llm.Error{Class: llm.Canceled, Provider: "bench", Err: ctx.Err()}
		}
	}
	return p.Provider.Stream(ctx, req, emit)
}

// allArrived is when the hold-th child made its first request (zero if it has not).
func (p *firstRequestProvider) allArrived() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.allAt
}

func (p *firstRequestProvider) firstOf(handle string) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.first[handle]
	return t, ok
}

// agentBenchNode is a Node with the default tools (agent tools included) on a scripted
// provider, in a small project, and a watcher connected to it over TCP as troupe watch is.
type agentBenchNode struct {
	*Node
	provider *firstRequestProvider
	client   *Client
	watch    *agentBenchWatcher
}

func startAgentBenchNode(b *testing.B, script string, limits AgentLimits, hold int) *agentBenchNode {
	b.Helper()
	root := b.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	files := map[string]string{
		"a.txt":           "alpha\n",
		"b.txt":           "beta\nalpha again\n",
		"src/main.go":     "package main\n\nfunc main() { println(\"alpha\") }\n",
		"src/util.go":     "package main\n\nfunc util() int { return 1 }\n",
		"docs/README.md":  "# bench\n\nalpha beta gamma\n",
		"docs/NOTES.md":   "nothing here\n",
		"data/small.json": "{\"alpha\": 1}\n",
	}
	for name, text := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s, err := llm.ParseScript("bench", []byte(script))
	if err != nil {
		b.Fatal(err)
	}
	p := &firstRequestProvider{Provider: llm.NewScriptedFrom(s), hold: hold, first: map[string]time.Time{}, released: make(chan struct{})}
	node, err := StartNode(NodeOptions{Root: root,
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) { return p, "scripted", nil },
		Retry:    llm.RetryPolicy{MaxAttempts: 1},
		Agents:   limits,
	})
	if err != nil {
		b.Fatal(err)
	}
	bn := &agentBenchNode{Node: node, provider: p}
	if bn.client, err = node.Client(); err != nil {
		node.Close()
		b.Fatal(err)
	}
	info := node.Info()
	if bn.watch, err = watchAgents(info); err != nil {
		bn.close()
		b.Fatal(err)
	}
	return bn
}

func (bn *agentBenchNode) close() {
	if bn.watch != nil {
		bn.watch.close()
	}
	bn.client.Close()
	bn.Node.Close()
}

// start starts the headless root session in yolo mode. Its context window is large: the root's
// turn that spawns 1,000 children and holds their 1,000 answers is about 90k tokens, which the
// scripted model's default 32k window refuses ("the latest turn alone is too large"), failing
// the root and interrupting every child (the "71 of 1,000 finished" of issue 10).
func (bn *agentBenchNode) start(b *testing.B, id string, maxTurns int) {
	b.Helper()
	if err := bn.client.StartSession(&messages.StartSession{ID: id, Task: "go", Model: "scripted", Mode: "yolo",
		Workspace: bn.Root, MaxTurns: maxTurns, ContextWindow: 4 << 20}); err != nil {
		b.Fatal(err)
	}
}

// agentBenchWatcher is a separate subscriber on every event of the project, over TCP. It
// counts envelopes, checks that each session's seq goes up by one, and keeps the timestamps
// the spawn latency needs.
type agentBenchWatcher struct {
	nc  *nats.Conn
	sub *nats.Subscription

	count    atomic.Int64
	mu       sync.Mutex
	firstAt  time.Time
	lastAt   time.Time
	lastSeq  map[string]uint64
	gaps     int64 // missing or repeated seqs, summed over sessions
	badJSON  int64
	proposed map[string]time.Time // task name -> ts of the spawn_agent call's tool.proposed
	spawnTS  map[string]time.Time // task name -> ts of the spawn_agent call's tool.started
	accepted map[string]time.Time // child handle -> ts of agent.spawned
	started  map[string]time.Time // child handle -> ts of its session.started
	finished map[string]time.Time // session id -> when the watcher saw its session.finished
	outcome  map[string]string    // session id -> its session.finished status, and error if any
	notDone  []string             // agent.finished results whose status is not done
	types    map[messages.EventType]int
	done     map[string]chan struct{} // session id -> closed at its session.finished
}

func watchAgents(info *NodeInfo) (*agentBenchWatcher, error) {
	ns := info.NS
	nc, err := Dial(info, KindWatcher, BusCredentials{}, "bench-agents-watch")
	if err != nil {
		return nil, err
	}
	w := &agentBenchWatcher{nc: nc, lastSeq: map[string]uint64{}, proposed: map[string]time.Time{}, spawnTS: map[string]time.Time{},
		accepted: map[string]time.Time{}, started: map[string]time.Time{}, finished: map[string]time.Time{}, outcome: map[string]string{},
		types: map[messages.EventType]int{}, done: map[string]chan struct{}{}}
	if w.sub, err = nc.Subscribe(messages.ProjectEventsSubject(ns), w.onMsg); err != nil {
		nc.Close()
		return nil, err
	}
	w.sub.SetPendingLimits(-1, -1)
	if err := nc.Flush(); err != nil {
		nc.Close()
		return nil, err
	}
	return w, nil
}

func (w *agentBenchWatcher) close() { w.nc.Close() }

func (w *agentBenchWatcher) onMsg(m *nats.Msg) {
	now := time.Now()
	var e messages.Envelope
	if err := json.Unmarshal(m.Data, &e); err != nil {
		w.mu.Lock()
		w.badJSON++
		w.mu.Unlock()
		return
	}
	w.count.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.firstAt.IsZero() {
		w.firstAt = now
	}
	w.lastAt = now
	if prev := w.lastSeq[e.Session]; e.Seq != prev+1 {
		if e.Seq > prev {
			w.gaps += int64(e.Seq - prev - 1)
		} else {
			w.gaps++
		}
	}
	w.lastSeq[e.Session] = max(w.lastSeq[e.Session], e.Seq)
	w.types[e.Type]++
	switch e.Type {
	case messages.EventToolProposed, messages.EventToolStarted:
		var d messages.ToolCallData
		if json.Unmarshal(e.Data, &d) == nil && d.Tool == "spawn_agent" {
			var args struct {
				TaskName string `json:"task_name"`
			}
			if json.Unmarshal([]byte(d.Args), &args) == nil {
				if e.Type == messages.EventToolProposed {
					w.proposed[args.TaskName] = e.TS
				} else {
					w.spawnTS[args.TaskName] = e.TS
				}
			}
		}
	case messages.EventAgentSpawned:
		var d messages.AgentSpawnedData
		if json.Unmarshal(e.Data, &d) == nil {
			w.accepted[d.Handle] = e.TS
		}
	case messages.EventSessionStarted:
		if e.Parent != "" {
			w.started[e.Agent] = e.TS
		}
	case messages.EventAgentFinished:
		var d messages.AgentResult
		if json.Unmarshal(e.Data, &d) == nil && d.Status != messages.AgentDone {
			w.notDone = append(w.notDone, fmt.Sprintf("%s %s: %s", d.Handle, d.Status, d.Error))
		}
	case messages.EventSessionFinished:
		w.finished[e.Session] = now
		var d messages.SessionFinishedData
		if json.Unmarshal(e.Data, &d) == nil {
			w.outcome[e.Session] = strings.TrimSuffix(string(d.Status)+": "+d.Error, ": ")
		}
		if ch := w.done[e.Session]; ch != nil {
			close(ch)
			delete(w.done, e.Session)
		}
	}
}

// finishedCh returns a channel closed when session id has finished.
func (w *agentBenchWatcher) finishedCh(id string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := make(chan struct{})
	if _, ok := w.finished[id]; ok {
		close(ch)
		return ch
	}
	w.done[id] = ch
	return ch
}

func (w *agentBenchWatcher) finishedCount(prefix string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for id := range w.finished {
		if strings.HasPrefix(id, prefix) {
			n++
		}
	}
	return n
}

// settle waits until the watcher has received no event for quiet (the tail of the run), at
// most for d.
func (w *agentBenchWatcher) settle(quiet, d time.Duration) {
	deadline := time.Now().Add(testwait.Scale(d))
	last := w.count.Load()
	for time.Now().Before(deadline) {
		time.Sleep(quiet)
		n := w.count.Load()
		if n == last {
			return
		}
		last = n
	}
}

// percentile of sorted durations (nearest rank).
func benchPercentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func benchMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkSpawnLatency measures, for each child, the time from its spawn to its first model
// request: from the earlier of the parent's tool.started event of the spawn_agent call and its
// agent.spawned event, to the moment the provider sees a request from root/<task>. (The
// tool.started event is usually the later one: the executor reports the start over the bus,
// while the call's Run asks the session directly, which then spawns the child before it reads
// the report. agent.spawned is stamped when the session takes the request, before it builds and
// starts the child.) It also splits that time at the child's session.started event (actor
// spawned, dependencies built, log created).
//
//   - one-per-turn: the root spawns one foreground child per turn and waits for it, so each
//     spawn runs alone: the latency of one child. An upper bound is reported too, from the
//     call's tool.proposed event (stamped before the call is sent to the executor).
//   - burst: the root spawns every child in one turn (the tool executor runs the calls one
//     after another), so later spawns compete with the earlier children's work.
func BenchmarkSpawnLatency(b *testing.B) {
	const spawns = 200
	for _, mode := range []string{"one-per-turn", "burst"} {
		b.Run(mode, func(b *testing.B) {
			var script strings.Builder
			script.WriteString(`{"turns": [`)
			call := func(i int) string {
				return fmt.Sprintf(`{"name": "spawn_agent", "args": {"task_name": "s%03d", "agent_type": "explorer", "message": "say ok"}}`, i)
			}
			if mode == "burst" {
				script.WriteString(`{"tool_calls": [`)
				for i := 0; i < spawns; i++ {
					if i > 0 {
						script.WriteString(",")
					}
					script.WriteString(call(i))
				}
				script.WriteString(`]},`)
			} else {
				for i := 0; i < spawns; i++ {
					fmt.Fprintf(&script, `{"tool_calls": [%s]},`, call(i))
				}
			}
			script.WriteString(`{"text": "done"}], "agents": {"*": {"turns": [{"text": "ok"}]}}}`)

			var total, toStart, toRequest, fromProposed []time.Duration
			var wall time.Duration
			for n := 0; n < b.N; n++ {
				bn := startAgentBenchNode(b, script.String(), AgentLimits{MaxRunning: 10_000, MaxDepth: 3}, 0)
				id := fmt.Sprintf("lat%d", n)
				done := bn.watch.finishedCh(id)
				begin := time.Now()
				bn.start(b, id, spawns+10)
				select {
				case <-done:
				case <-time.After(testwait.Scale(2 * time.Minute)):
					finished := bn.watch.finishedCount(id + "-")
					bn.close()
					b.Fatalf("the root did not finish: %d of %d children finished", finished, spawns)
				}
				wall += time.Since(begin)
				bn.watch.settle(50*time.Millisecond, 5*time.Second)
				w := bn.watch
				w.mu.Lock()
				for i := 0; i < spawns; i++ {
					task := fmt.Sprintf("s%03d", i)
					handle := "root/" + task
					from, ok1 := w.spawnTS[task]
					acc, ok2 := w.accepted[handle]
					st, ok3 := w.started[handle]
					first, ok4 := bn.provider.firstOf(handle)
					if !ok1 || !ok2 || !ok3 || !ok4 {
						w.mu.Unlock()
						bn.close()
						b.Fatalf("child %s: tool.started %v, agent.spawned %v, session.started %v, first request %v", handle, ok1, ok2, ok3, ok4)
					}
					if acc.Before(from) {
						from = acc
					}
					total = append(total, first.Sub(from))
					if p, ok := w.proposed[task]; ok {
						fromProposed = append(fromProposed, first.Sub(p))
					}
					toStart = append(toStart, st.Sub(from))
					toRequest = append(toRequest, first.Sub(st))
				}
				gaps, bad := w.gaps, w.badJSON
				w.mu.Unlock()
				bn.close()
				if gaps != 0 || bad != 0 {
					b.Fatalf("watcher saw %d seq gaps and %d undecodable events", gaps, bad)
				}
			}
			for _, s := range [][]time.Duration{total, toStart, toRequest, fromProposed} {
				slices.Sort(s)
			}
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(benchMS(benchPercentile(total, 0.50)), "ms-p50")
			b.ReportMetric(benchMS(benchPercentile(total, 0.99)), "ms-p99")
			b.ReportMetric(benchMS(total[len(total)-1]), "ms-max")
			b.ReportMetric(benchMS(benchPercentile(toStart, 0.50)), "ms-p50-to-session.started")
			b.ReportMetric(benchMS(benchPercentile(toRequest, 0.50)), "ms-p50-started-to-request")
			if mode == "one-per-turn" {
				b.ReportMetric(benchMS(benchPercentile(fromProposed, 0.50)), "ms-p50-from-tool.proposed")
				b.ReportMetric(benchMS(benchPercentile(fromProposed, 0.99)), "ms-p99-from-tool.proposed")
			}
			b.Logf("%s: %d spawns in %v: spawn → first request p50 %.2f ms, p99 %.2f ms, max %.2f ms (spawn → session.started p50 %.2f ms; session.started → request p50 %.2f ms)",
				mode, len(total), wall.Round(time.Millisecond), benchMS(benchPercentile(total, 0.5)), benchMS(benchPercentile(total, 0.99)), benchMS(total[len(total)-1]),
				benchMS(benchPercentile(toStart, 0.5)), benchMS(benchPercentile(toRequest, 0.5)))
		})
	}
}

// procStatusKB reads a "VmXXX:" field of /proc/self/status, in KiB (0 if unavailable).
func procStatusKB(field string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// writeHeapProfile writes the live heap to path (TROUPE_BENCH_HEAPPROFILE: the heap when every
// child is alive, which is what -memprofile, written at the end, does not show).
func agentBenchHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Error(err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Error(err)
	}
}

// agentBenchMem samples the Go runtime's memory classes (runtime/metrics, no stop-the-world) and
// keeps the peak of each: where the RSS goes.
type agentBenchMem struct {
	samples []metrics.Sample
	peak    []uint64
}

var agentBenchMemNames = []string{"heap objects", "heap free+unused", "goroutine stacks", "Go total"}

func newAgentBenchMem() *agentBenchMem {
	names := []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes",
		"/memory/classes/heap/stacks:bytes", "/memory/classes/total:bytes"}
	m := &agentBenchMem{peak: make([]uint64, len(names))}
	for _, n := range names {
		m.samples = append(m.samples, metrics.Sample{Name: n})
	}
	return m
}

// sample is called from one goroutine only.
func (m *agentBenchMem) sample() {
	metrics.Read(m.samples)
	for i, s := range m.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			m.peak[i] = max(m.peak[i], s.Value.Uint64())
		}
	}
}

func (m *agentBenchMem) String() string {
	parts := make([]string, len(m.peak))
	for i, v := range m.peak {
		parts[i] = fmt.Sprintf("%s %.0f MiB", agentBenchMemNames[i], float64(v)/(1<<20))
	}
	return strings.Join(parts, ", ")
}

// resetPeakRSS resets VmHWM to the current RSS (Linux ≥ 4.0), so the peak read later is this
// run's, not that of whatever ran before in the process.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// BenchmarkThousandAgents runs one root that spawns 1,000 background children in one turn,
// each doing three read-only tool turns (read_file, glob, grep) and answering; the root then
// waits for all of them with wait_agent and answers. Each child's first model call is held
// until every child has made one, so all 1,000 are alive at once (a scripted child otherwise
// ends in a few milliseconds, before the next is spawned); then they all run their turns
// concurrently. It reports the wall time from the start to the root's session.finished (and
// the part spent spawning), the process's peak RSS (VmHWM, reset before the run) and its growth
// per agent, the Go memory classes and goroutines at their peak, and the events per second a
// separate watcher connected over TCP received, checking every session's seq is gap-free.
//
// TROUPE_BENCH_AGENTS sets the number of children; TROUPE_BENCH_HOLD=0 lets each child run as
// soon as it is spawned; TROUPE_BENCH_HEAPPROFILE=file writes the heap when all are alive.
func BenchmarkThousandAgents(b *testing.B) {
	agents := 1000
	if v, err := strconv.Atoi(os.Getenv("TROUPE_BENCH_AGENTS")); err == nil && v > 0 {
		agents = v
	}
	hold := agents
	if os.Getenv("TROUPE_BENCH_HOLD") == "0" {
		hold = 0
	}
	var script strings.Builder
	script.WriteString(`{"turns": [{"tool_calls": [`)
	handles := make([]string, agents)
	for i := 0; i < agents; i++ {
		if i > 0 {
			script.WriteString(",")
		}
		handles[i] = fmt.Sprintf("root/a%04d", i)
		fmt.Fprintf(&script, `{"name": "spawn_agent", "args": {"task_name": "a%04d", "agent_type": "explorer", "message": "find alpha", "background": true}}`, i)
	}
	hs, _ := json.Marshal(handles)
	fmt.Fprintf(&script, `]}, {"tool_calls": [{"name": "wait_agent", "args": {"handles": %s, "timeout_s": 600}}]}, {"text": "all reported"}],`, hs)
	script.WriteString(`"agents": {"*": {"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"tool_calls": [{"name": "glob", "args": {"pattern": "**/*.go"}}]},
		{"tool_calls": [{"name": "grep", "args": {"pattern": "alpha"}}]},
		{"text": "alpha is at a.txt:1"}]}}}`)

	for n := 0; n < b.N; n++ {
		bn := startAgentBenchNode(b, script.String(), AgentLimits{MaxRunning: agents, MaxDepth: 3}, hold)
		id := fmt.Sprintf("k%d", n)
		done := bn.watch.finishedCh(id)

		runtime.GC()
		debug.FreeOSMemory()
		baseRSS := procStatusKB("VmRSS")
		hwmBefore := procStatusKB("VmHWM")
		reset := resetPeakRSS()
		if reset {
			hwmBefore = procStatusKB("VmHWM")
		}
		baseGoroutines := runtime.NumGoroutine()
		var peakGoroutines atomic.Int64
		peakMem := newAgentBenchMem()
		stopSampling := make(chan struct{})
		var sampling sync.WaitGroup
		sampling.Add(1)
		go func() {
			defer sampling.Done()
			t := time.NewTicker(20 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stopSampling:
					return
				case <-t.C:
					if g := int64(runtime.NumGoroutine()); g > peakGoroutines.Load() {
						peakGoroutines.Store(g)
					}
					peakMem.sample()
				}
			}
		}()

		if path := os.Getenv("TROUPE_BENCH_HEAPPROFILE"); path != "" {
			sampling.Add(1)
			go func() {
				defer sampling.Done()
				select {
				case <-bn.provider.released:
					agentBenchHeapProfile(b, path)
				case <-stopSampling:
				}
			}()
		}
		begin := time.Now()
		bn.start(b, id, 10)
		var timedOut bool
		select {
		case <-done:
		case <-time.After(testwait.Scale(2 * time.Minute)):
			timedOut = true
		}
		wall := time.Since(begin)
		hwm := procStatusKB("VmHWM")
		allAlive := time.Duration(0)
		if at := bn.provider.allArrived(); !at.IsZero() {
			allAlive = at.Sub(begin)
		}
		close(stopSampling)
		sampling.Wait()
		if timedOut {
			finished := bn.watch.finishedCount(id + "-")
			bn.close()
			b.Fatalf("the root did not finish within 2 minutes: %d of %d children finished", finished, agents)
		}
		bn.watch.settle(100*time.Millisecond, 10*time.Second)

		w := bn.watch
		w.mu.Lock()
		events, gaps, bad := w.count.Load(), w.gaps, w.badJSON
		span := w.lastAt.Sub(w.firstAt)
		children := 0
		for sid := range w.finished {
			if strings.HasPrefix(sid, id+"-") {
				children++
			}
		}
		sessions := len(w.lastSeq)
		rootOutcome, notDone := w.outcome[id], slices.Clone(w.notDone)
		w.mu.Unlock()
		bn.close()

		delta := hwm - baseRSS
		perAgent := float64(delta) / float64(agents)
		evps := float64(events) / span.Seconds()
		fmt.Printf("\n%d agents × 3 tool turns (1 root, MaxRunning %d, all alive at once: %v), GOMAXPROCS %d\n", agents, agents, hold > 0, runtime.GOMAXPROCS(0))
		row := func(k, v string) { fmt.Printf("  %-40s %s\n", k, v) }
		row("wall, start → root session.finished", wall.Round(time.Millisecond).String())
		if hold > 0 {
			row("  of which spawning (until all alive)", allAlive.Round(time.Millisecond).String())
		}
		row("children finished (watcher)", fmt.Sprintf("%d of %d", children, agents))
		row("RSS before run", fmt.Sprintf("%.1f MiB", float64(baseRSS)/1024))
		if reset {
			row("peak RSS (VmHWM, reset before run)", fmt.Sprintf("%.1f MiB", float64(hwm)/1024))
		} else {
			row("peak RSS (VmHWM, not resettable)", fmt.Sprintf("%.1f MiB (%.1f MiB before)", float64(hwm)/1024, float64(hwmBefore)/1024))
		}
		row("peak RSS − RSS before", fmt.Sprintf("%.1f MiB", float64(delta)/1024))
		row("per agent", fmt.Sprintf("%.1f KiB", perAgent))
		row("Go memory at its peak (sampled)", peakMem.String())
		row("goroutines before / peak", fmt.Sprintf("%d / %d (%.1f per agent)", baseGoroutines, peakGoroutines.Load(), float64(peakGoroutines.Load()-int64(baseGoroutines))/float64(agents)))
		row("events seen by the watcher", fmt.Sprintf("%d from %d sessions in %v", events, sessions, span.Round(time.Millisecond)))
		row("events/s seen by the watcher", fmt.Sprintf("%.0f", evps))
		row("seq gaps / undecodable events", fmt.Sprintf("%d / %d", gaps, bad))
		b.ReportMetric(0, "ns/op")
		b.ReportMetric(wall.Seconds(), "s-wall")
		b.ReportMetric(allAlive.Seconds(), "s-until-all-alive")
		b.ReportMetric(float64(hwm)/1024, "MiB-peak-RSS")
		b.ReportMetric(float64(delta)/1024, "MiB-peak-RSS-growth")
		b.ReportMetric(perAgent, "KiB-RSS/agent")
		b.ReportMetric(float64(peakGoroutines.Load()), "goroutines-peak")
		b.ReportMetric(evps, "events/s")
		b.ReportMetric(float64(gaps), "seq-gaps")
		if gaps != 0 || bad != 0 {
			b.Errorf("the watcher saw %d seq gaps and %d undecodable events", gaps, bad)
		}
		if rootOutcome != string(messages.StatusDone) {
			b.Fatalf("the root ended %s", rootOutcome)
		}
		if children != agents || len(notDone) > 0 {
			b.Fatalf("%d of %d children finished, %d of them not done; first: %v", children, agents, len(notDone), notDone[:min(len(notDone), 5)])
		}
	}
}
