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

	"github.com/troupe-dev/troupe/actors"

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

// Two real troupe worker processes, each with its own credentials, share 50 tasks on a 3-node
// stock cluster; one is SIGKILLed while it holds tasks. Every task still gets its result (the
// killed worker's come back after AckWait and run on the other), a watch-only client cannot
// forge a result, and a client without credentials is refused.
func TestScenarioWorkersOnStockCluster(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	ns := actors.ProjectNamespace(repo, "")
	sc := startScenarioCluster(t, ns)
	env := testEnv(t)
	model := writeScript(t, repo, `{"turns": [{"text": "parent"}],
		"agents": {"*": {"turns": [{"delay_ms": 300, "text": "child reporting"}]}}}`)

	node, err := nats.Connect(sc.url("node"))
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	tr := &taskResults{results: map[string][]*messages.AgentResult{}, leases: map[string][]*messages.TaskLease{}}
	if _, err := node.Subscribe(messages.AllWorkerResultsSubject(ns), tr.take); err != nil {
		t.Fatal(err)
	}
	workers := map[string]*lineWatcher{}
	var w1 *exec.Cmd
	for _, name := range []string{"w1", "w2"} {
		cmd, out, _ := startTroupe(t, repo, env, "worker", "--nats", sc.url(name), "--name", name, "--slots", "4",
			"--ack-wait", "2s", "--repo-cache", t.TempDir(), "--sandbox", "off")
		workers[name] = out
		out.waitFor(t, "troupe: worker "+name+" serving", 60*time.Second)
		if name == "w1" {
			w1 = cmd
		}
	}
	q, err := taskqueue.OpenPublisher(context.Background(), node, taskqueue.Config{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	for i := range scenarioAgents {
		id := fmt.Sprintf("task-%02d", i)
		err := q.Publish(context.Background(), &messages.SpawnTask{ID: id, Project: ns, ParentNode: "n-test", Parent: "parent-1",
			Start: messages.StartSession{ID: id, Task: "report", Model: model, Mode: "yolo", Workspace: repo,
				Agent: "root/" + id, Parent: "parent-1", Role: "explorer", Depth: 1}})
		if err != nil {
			t.Fatal(err)
		}
	}
	var killedHeld []string
	testwait.For(t, 60*time.Second, func() error {
		if killedHeld = tr.heldBy("w1"); len(killedHeld) == 0 {
			return fmt.Errorf("worker w1 holds no task yet")
		}
		return nil
	})
	if err := w1.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, 120*time.Second, func() error {
		if n := tr.count(); n < scenarioAgents {
			return fmt.Errorf("%d of %d tasks reported; w2 said:\n%s", n, scenarioAgents, workers["w2"].text())
		}
		return nil
	})
	tr.mu.Lock()
	for id, rs := range tr.results {
		if rs[0].Status != messages.AgentDone || rs[0].Summary != "child reporting" || (rs[0].Worker != "w1" && rs[0].Worker != "w2") {
			t.Errorf("task %s: %+v", id, rs[0])
		}
	}
	redelivered := 0
	for _, id := range killedHeld {
		if rs := tr.results[id]; len(rs) > 0 && rs[len(rs)-1].Worker == "w2" {
			redelivered++
		}
	}
	tr.mu.Unlock()
	if redelivered == 0 {
		t.Errorf("none of the %d tasks the killed worker held was finished by the other", len(killedHeld))
	}

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
	forged, _ := messages.Encode(&messages.AgentResult{Session: "task-00", Status: messages.AgentFailed, Worker: "w2", Summary: "forged"})
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
	if err := node.Flush(); err != nil {
		t.Fatal(err)
	}
	tr.mu.Lock()
	for _, r := range tr.results["task-00"] {
		if r.Summary == "forged" {
			t.Error("the forged result reached the results subject")
		}
	}
	tr.mu.Unlock()

	// No credentials: refused, by a plain client and by troupe worker alike.
	if nc, err := nats.Connect(sc.c.URL()); err == nil {
		nc.Close()
		t.Fatal("a client without credentials was let in")
	}
	r := troupe(t, repo, env, "worker", "--nats", sc.c.URL(), "--name", "w3")
	if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "Authorization Violation") {
		t.Fatalf("worker without credentials: exit %d\n%s", r.code, r.stderr)
	}
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
