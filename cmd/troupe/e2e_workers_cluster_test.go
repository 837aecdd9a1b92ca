package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"

	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// scenarioCluster is the 3-node stock cluster of issue 25's scenario with one account and a
// user per kind of client, each allowed only its subjects (docs/WORKERS.md).
type scenarioCluster struct {
	c  *natstest.Cluster
	ns string
}

// scenarioAccounts is one account with a user per test client, each given its kind's grant
// (actors.GrantFor, what docs/WORKERS.md's example server configuration says): the Node may do
// everything, each worker its own wrk.<name> subjects, events and the JetStream API to consume,
// the watcher only read events.
func scenarioAccounts(ns string) string {
	q := func(ss []string) string { return `["` + strings.Join(ss, `", "`) + `"]` }
	user := func(name string, kind actors.CredKind) string {
		g := actors.GrantFor(kind, ns)
		if g.All {
			return fmt.Sprintf(`{user: %s, password: %s-secret}`, name, name)
		}
		pub := g.Publish
		if kind == actors.KindWorker { // narrowed to its own name, as docs/WORKERS.md suggests
			pub = slices.DeleteFunc(slices.Clone(pub), func(s string) bool { return s == "troupe."+ns+".wrk.>" })
			pub = append(pub, "troupe."+ns+".wrk."+name+".>")
		}
		return fmt.Sprintf(`{user: %s, password: %s-secret, permissions: {publish: {allow: %s}, subscribe: {allow: %s}, allow_responses: %v}}`,
			name, name, q(pub), q(g.Subscribe), g.AllowResponses)
	}
	return `accounts { T: { jetstream: enabled, users: [
		` + user("node", actors.KindNode) + `
		` + user("client", actors.KindClient) + `
		` + user("w1", actors.KindWorker) + `
		` + user("w2", actors.KindWorker) + `
		` + user("watch", actors.KindWatcher) + `
	] } }`
}

func startScenarioCluster(t *testing.T, ns string) *scenarioCluster {
	return &scenarioCluster{c: natstest.Start(t, natstest.Options{Nodes: 3, Accounts: scenarioAccounts(ns)}), ns: ns}
}

// url is the cluster's URL with user's credentials in it.
func (sc *scenarioCluster) url(user string) string {
	var urls []string
	for i := range sc.c.Len() {
		urls = append(urls, strings.Replace(sc.c.NodeURL(i), "nats://", "nats://"+user+":"+user+"-secret@", 1))
	}
	return strings.Join(urls, ",")
}

// taskResults collects what workers report on their results subjects.
type taskResults struct {
	mu      sync.Mutex
	results map[string][]*messages.AgentResult
	leases  map[string][]*messages.TaskLease
}

func (tr *taskResults) take(m *nats.Msg) {
	v, err := messages.Decode(m.Data)
	if err != nil {
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	switch v := v.(type) {
	case *messages.AgentResult:
		tr.results[v.Session] = append(tr.results[v.Session], v)
	case *messages.TaskLease:
		tr.leases[v.Task] = append(tr.leases[v.Task], v)
	}
}

// heldBy lists the tasks worker w holds a lease on and has no result for.
func (tr *taskResults) heldBy(w string) []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []string
	for task, ls := range tr.leases {
		if ls[len(ls)-1].Worker == w && len(tr.results[task]) == 0 {
			out = append(out, task)
		}
	}
	return out
}

func (tr *taskResults) count() int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return len(tr.results)
}

// credEnv is a troupe process's environment on the cluster as user.
func (sc *scenarioCluster) credEnv(t *testing.T, user string) []string {
	return testEnv(t, "TROUPE_NATS="+sc.c.URL(), "TROUPE_NATS_USER="+user, "TROUPE_NATS_PASSWORD="+user+"-secret")
}

// Issue 25's scenario on a 3-node stock cluster: a parent (its node started by troupe serve, the
// run attached as a client) spawns 50 scripted subagents with placement workers; two real
// troupe worker processes, each with its own credentials, run them, and one is SIGKILLed while
// it holds tasks. Every result reaches the parent exactly once, troupe watch --json in a third
// process sees all 51 sessions, a watch-only client cannot forge a result, and a client
// without credentials is refused.
func TestScenarioWorkersOnStockCluster(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	ns := actors.ProjectNamespace(repo, "")
	sc := startScenarioCluster(t, ns)
	model := writeScript(t, repo, strings.Replace(spawnManyScript(scenarioAgents),
		`{"text": "child reporting"}`, `{"delay_ms": 300, "text": "child reporting"}`, 1))

	tap, err := nats.Connect(sc.url("node"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tap.Close) // after the failure report below, which reads the queue through it
	tr := &taskResults{results: map[string][]*messages.AgentResult{}, leases: map[string][]*messages.TaskLease{}}
	if _, err := tap.Subscribe(messages.AllWorkerResultsSubject(ns), tr.take); err != nil {
		t.Fatal(err)
	}
	evs := &eventTap{types: map[string][]string{}}
	if _, err := tap.Subscribe(messages.ProjectEventsSubject(ns), evs.take); err != nil {
		t.Fatal(err)
	}
	var w1 *exec.Cmd
	logs := map[string]*strings.Builder{}
	for _, name := range []string{"w1", "w2"} {
		cmd, out, werr := startTroupe(t, repo, sc.credEnv(t, name), "worker", "--name", name, "--slots", "4",
			"--ack-wait", "2s", "--repo-cache", t.TempDir(), "--sandbox", "off")
		out.waitFor(t, "troupe: worker "+name+" serving", 60*time.Second)
		logs[name] = werr
		if name == "w1" {
			w1 = cmd
		}
	}
	serve, sout, serr := startTroupe(t, repo, append(sc.credEnv(t, "node"), "TROUPE_PLACEMENT=workers"), "serve", "--sandbox", "off")
	logs["serve"] = serr
	sout.waitFor(t, "troupe: serving", 60*time.Second)
	_, wout, _ := startTroupe(t, repo, sc.credEnv(t, "watch"), "watch", "--json")
	// A second watcher draws the agent tree as lines (piped): every child under the run, with
	// the name of the worker it ran on.
	_, lout, _ := startTroupe(t, repo, sc.credEnv(t, "watch"), "watch")
	client := sc.credEnv(t, "client")
	warmModel := writeScript(t, repo, `{"turns": [{"text": "warm"}]}`)
	testwait.For(t, 60*time.Second, func() error {
		warm := troupe(t, repo, client, "run", "--json", "--model", warmModel, "warm up")
		if warm.code != 0 {
			t.Fatalf("warm-up run: exit %d\n%s", warm.code, warm.stderr)
		}
		id := envelopes(t, warm.stdout)[0].Session
		if err := waitLine(wout, id, time.Second); err != nil {
			return err
		}
		return waitLine(lout, " "+ui.ShortID(id)+" root ", time.Second)
	})

	run, rout, rerr := startTroupe(t, repo, client, "run", "--json", "--mode", "yolo", "--sandbox", "off",
		"--placement", "workers", "--model", model, "spawn the agents")
	var held []string
	testwait.For(t, 60*time.Second, func() error {
		if held = tr.heldBy("w1"); len(held) == 0 {
			return fmt.Errorf("worker w1 holds no task yet")
		}
		return nil
	})
	if err := w1.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	root := runID(t, rout)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("children without a result on the results subjects:\n%s\nthe queue: %s\nstderr of w1, w2:\n%s\n%s",
				unreported(rout, tr), queueState(tap, ns), logs["w1"], logs["w2"])
			// The Node's goroutines that were doing troupe's work when it stalled.
			if serve.Process.Signal(syscall.SIGQUIT) == nil {
				waitExit(t, serve, 30*time.Second)
			}
			t.Logf("serve's stderr, troupe's goroutines:\n%s", troupeStacks(logs["serve"].String()))
		}
	})
	testwait.For(t, 180*time.Second, func() error {
		if waitLine(rout, `"session":"`+root+`","agent":"root","type":"session.finished"`, 0) == nil {
			return nil
		}
		tr.mu.Lock()
		defer tr.mu.Unlock()
		var open []string
		for task, ls := range tr.leases {
			if len(tr.results[task]) == 0 {
				open = append(open, fmt.Sprintf("%s (last lease %s attempt %d)", task, ls[len(ls)-1].Worker, ls[len(ls)-1].Attempt))
			}
		}
		return fmt.Errorf("the run has not finished: %d results on the results subjects, leased without a result: %v",
			len(tr.results), open)
	})
	if code := waitExit(t, run, 60*time.Second); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, rerr.String())
	}
	envs := envelopes(t, rout.text())
	if fin := finished(t, envs); fin.Final != "all agents reported" {
		t.Fatalf("final = %q", fin.Final)
	}
	results := agentResults(t, envs)
	checkOncePerAgent(t, results, scenarioAgents)
	for s, rs := range results {
		if rs[0].Worker != "w1" && rs[0].Worker != "w2" {
			t.Errorf("child %s ran on %q, not on a worker", s, rs[0].Worker)
		}
	}
	redone := finishedElsewhere(tr, held, "w2")
	if redone == 0 {
		t.Errorf("none of the %d tasks the killed worker held was finished by the other", len(held))
	}
	t.Logf("w1 held %d tasks when killed; w2 finished %d of them", len(held), redone)
	waitSessionsOr(t, wout, envs[0].Session, scenarioAgents+1, func(seen map[string]bool) string {
		return evs.explain(seen, results)
	})
	testwait.For(t, 60*time.Second, func() error {
		var missing []string
		for _, rs := range results {
			want := fmt.Sprintf(" %s %s@%s %s done", ui.ShortID(root), rs[0].Handle, rs[0].Worker, rs[0].Role)
			if waitLine(lout, want, 0) != nil {
				missing = append(missing, want)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("troupe watch has no line %q (and %d more):\n%s", missing[0], len(missing)-1, lout.text())
		}
		return nil
	})

	// A watch-only client cannot forge a result: the server refuses the publish.
	forgedErr := make(chan error, 1)
	watch, err := nats.Connect(sc.url("watch"), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case forgedErr <- err:
		default:
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	forged, _ := messages.Encode(&messages.AgentResult{Session: "forged", Status: messages.AgentFailed, Worker: "w2", Summary: "forged"})
	watch.Publish(messages.WorkerResultsSubject(ns, "w2"), forged)
	watch.Flush()
	select {
	case err := <-forgedErr:
		if !strings.Contains(err.Error(), "Permissions Violation") {
			t.Fatalf("forged result: %v", err)
		}
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("the server did not refuse the watch credential's forged result")
	}
	if err := tap.Flush(); err != nil {
		t.Fatal(err)
	}
	tr.mu.Lock()
	forgedSeen := len(tr.results["forged"])
	tr.mu.Unlock()
	if forgedSeen != 0 {
		t.Error("the forged result reached the results subject")
	}

	// No credentials: refused, by a plain client and by troupe worker alike.
	if nc, err := nats.Connect(sc.c.URL()); err == nil {
		nc.Close()
		t.Fatal("a client without credentials was let in")
	}
	r := troupe(t, repo, testEnv(t), "worker", "--nats", sc.c.URL(), "--name", "w3")
	if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "Authorization Violation") {
		t.Fatalf("worker without credentials: exit %d\n%s", r.code, r.stderr)
	}
}

// eventTap records, per session, the types of the events the test's own subscriber saw, to
// tell apart an event never published from one the watcher did not get.
type eventTap struct {
	mu    sync.Mutex
	types map[string][]string
}

func (et *eventTap) take(m *nats.Msg) {
	var e messages.Envelope
	if json.Unmarshal(m.Data, &e) != nil {
		return
	}
	et.mu.Lock()
	defer et.mu.Unlock()
	et.types[e.Session] = append(et.types[e.Session], fmt.Sprintf("%d:%s", e.Seq, e.Type))
}

// explain names the children the watcher has not shown, where each ran and what the tap saw.
func (et *eventTap) explain(seen map[string]bool, results map[string][]*messages.AgentResult) string {
	et.mu.Lock()
	defer et.mu.Unlock()
	var out []string
	for s, rs := range results {
		if !seen[s] {
			out = append(out, fmt.Sprintf("%s (ran on %s; the test's subscriber saw %v)", s, rs[0].Worker, et.types[s]))
		}
	}
	return "not shown: " + strings.Join(out, ", ")
}

// unreported is the run's agent.* lines of the children no worker reported a result for.
func unreported(rout *lineWatcher, tr *taskResults) string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []string
	for _, l := range strings.Split(rout.text(), "\n") {
		var e messages.Envelope
		if json.Unmarshal([]byte(l), &e) != nil || !strings.HasPrefix(string(e.Type), "agent.") {
			continue
		}
		var d struct{ Session string }
		if json.Unmarshal(e.Data, &d) == nil && len(tr.results[d.Session]) == 0 {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// queueState says what the task stream and its consumer hold, and which tasks are in it.
func queueState(nc *nats.Conn, ns string) string {
	js, err := jetstream.New(nc)
	if err != nil {
		return err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
	defer cancel()
	st, err := js.Stream(ctx, taskqueue.StreamName(ns))
	if err != nil {
		return err.Error()
	}
	si, err := st.Info(ctx)
	if err != nil {
		return err.Error()
	}
	out := fmt.Sprintf("stream: %d messages, seq %d..%d", si.State.Msgs, si.State.FirstSeq, si.State.LastSeq)
	if c, err := st.Consumer(ctx, taskqueue.DefaultConsumer); err == nil {
		if ci, err := c.Info(ctx); err == nil {
			out += fmt.Sprintf("; consumer: pending %d, ack pending %d, redelivered %d, waiting %d, delivered %d, ack floor %d",
				ci.NumPending, ci.NumAckPending, ci.NumRedelivered, ci.NumWaiting, ci.Delivered.Stream, ci.AckFloor.Stream)
		}
	}
	for seq := si.State.FirstSeq; si.State.Msgs > 0 && seq <= si.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if err != nil {
			continue
		}
		if v, err := messages.Decode(m.Data); err == nil {
			if task, ok := v.(*messages.SpawnTask); ok {
				out += fmt.Sprintf("; seq %d: task %s", seq, task.ID)
			}
		}
	}
	return out
}

// troupeStacks keeps the goroutines of a Go stack dump that run troupe's own code.
func troupeStacks(dump string) string {
	var out []string
	for _, g := range strings.Split(dump, "\n\n") {
		if strings.Contains(g, "troupe-dev/troupe/") && !strings.Contains(g, "created by github.com/asynkron") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}

// runID is the session id of a run started with --json, from its first line.
func runID(t *testing.T, w *lineWatcher) string {
	line := w.waitFor(t, `"type":"session.started"`, 60*time.Second)
	var e messages.Envelope
	if err := json.Unmarshal([]byte(line), &e); err != nil {
		t.Fatal(err)
	}
	return e.Session
}

// finishedElsewhere counts the tasks among held whose last result came from worker w.
func finishedElsewhere(tr *taskResults, held []string, w string) int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	n := 0
	for _, id := range held {
		if rs := tr.results[id]; len(rs) > 0 && rs[len(rs)-1].Worker == w {
			n++
		}
	}
	return n
}

// SIGTERM stops a worker taking tasks; the one it runs goes back to the queue when the grace
// is over (an AckWait of ten minutes proves it is handed back, not timed out), the worker
// exits 0, and the next worker resumes the child from its mirrored log instead of starting over.
func TestWorkerSIGTERMHandsItsTaskBack(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	ns := actors.ProjectNamespace(repo, "")
	c := natstest.Start(t, natstest.Options{})
	env := testEnv(t)
	model := writeScript(t, repo, `{"turns": [{"text": "parent"}],
		"agents": {"*": {"turns": [
			{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
			{"delay_ms": 600000, "text": "first worker's answer"},
			{"text": "never"}]}}}`)
	nc, err := nats.Connect(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	tr := &taskResults{results: map[string][]*messages.AgentResult{}, leases: map[string][]*messages.TaskLease{}}
	if _, err := nc.Subscribe(messages.AllWorkerResultsSubject(ns), tr.take); err != nil {
		t.Fatal(err)
	}
	started := make(chan *nats.Msg, 4)
	if _, err := nc.ChanSubscribe(messages.EventSubject(ns, "task-x", messages.EventSessionStarted), started); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	w1, out1, _ := startTroupe(t, repo, env, "worker", "--nats", c.URL(), "--name", "w1", "--ack-wait", "10m",
		"--grace", "100ms", "--repo-cache", cache, "--sandbox", "off")
	out1.waitFor(t, "serving", 60*time.Second)
	q, err := taskqueue.OpenPublisher(context.Background(), nc, taskqueue.Config{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	err = q.Publish(context.Background(), &messages.SpawnTask{ID: "task-x", Project: ns, Parent: "parent-1",
		Start: messages.StartSession{ID: "task-x", Task: "report", Model: model, Mode: "yolo", Workspace: repo,
			Agent: "root/task-x", Parent: "parent-1", Role: "explorer", Depth: 1}})
	if err != nil {
		t.Fatal(err)
	}
	first := startedData(t, started)
	if first.Resumed {
		t.Fatal("the first delivery resumed")
	}
	testwait.Until(t, 30*time.Second, func() bool { return len(tr.heldBy("w1")) == 1 }, "w1's lease")
	if err := w1.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, w1, 60*time.Second); code != 0 {
		t.Fatalf("worker exit %d after SIGTERM", code)
	}
	_, out2, _ := startTroupe(t, repo, env, "worker", "--nats", c.URL(), "--name", "w2", "--ack-wait", "10m",
		"--repo-cache", t.TempDir(), "--sandbox", "off")
	out2.waitFor(t, "serving", 60*time.Second)
	testwait.Until(t, 60*time.Second, func() bool { return len(tr.heldBy("w2")) == 1 }, "the task handed back to w2")
	tr.mu.Lock()
	last := tr.leases["task-x"][len(tr.leases["task-x"])-1]
	tr.mu.Unlock()
	if last.Attempt != 2 {
		t.Fatalf("w2's lease: %+v", last)
	}
	for {
		if d := startedData(t, started); d.Resumed {
			break
		}
	}
}

func startedData(t *testing.T, ch chan *nats.Msg) *messages.SessionStartedData {
	t.Helper()
	select {
	case m := <-ch:
		var e messages.Envelope
		if err := json.Unmarshal(m.Data, &e); err != nil {
			t.Fatal(err)
		}
		v, err := e.DecodeData()
		if err != nil {
			t.Fatal(err)
		}
		return v.(*messages.SessionStartedData)
	case <-time.After(testwait.Scale(60 * time.Second)):
		t.Fatal("no session.started")
		return nil
	}
}
