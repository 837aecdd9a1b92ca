package actors

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// startDispatchNode starts a Node on a stock nats-server with JetStream (internal/natstest),
// dispatching to workers, in a git repository with one commit (the code a task ships).
func startDispatchNode(t *testing.T, script string, grace time.Duration) (*testNode, *natstest.Cluster) {
	t.Helper()
	cluster := natstest.Start(t, natstest.Options{})
	tn := &testNode{}
	node, err := StartNode(dispatchNodeOptions(t, gitRoot(t), cluster.URL(), script, grace, tn))
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	return tn, cluster
}

// gitRoot is a project root that is a git repository with one commit.
func gitRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

// dispatchNodeOptions are a Node's options on the scripted provider (kept in tn), joining url
// and dispatching to its workers.
func dispatchNodeOptions(t *testing.T, root, url, script string, grace time.Duration, tn *testNode) NodeOptions {
	t.Helper()
	s, err := llm.ParseScript("test", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	tn.provider = &recordingProvider{Provider: llm.NewScriptedFrom(s)}
	return NodeOptions{
		Root: root,
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		},
		Retry:    llm.RetryPolicy{MaxAttempts: 1},
		NATS:     url,
		Dispatch: DispatchOptions{Open: JetStreamQueue, Code: CodeOptions{Root: root}, LeaseGrace: grace},
	}
}

// fakeWorker consumes the project's task queue as a worker would and answers each task with
// answer (which publishes on the worker's results subject), until the test ends.
func fakeWorker(t *testing.T, url, ns, name string, answer func(nc *nats.Conn, task *messages.SpawnTask)) {
	t.Helper()
	fakeWorkerAcking(t, url, ns, answer, true)
}

// fakeWorkerAcking is fakeWorker; with ack false it hands every task back (Nak) after answer,
// as a worker that cannot run it would.
func fakeWorkerAcking(t *testing.T, url, ns string, answer func(nc *nats.Conn, task *messages.SpawnTask), ack bool) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
	defer cancel()
	q, err := taskqueue.OpenConsumer(ctx, nc, taskqueue.Config{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			d, err := q.Next()
			if err != nil {
				continue
			}
			answer(nc, &d.Task)
			if !ack {
				_ = d.Nak()
				continue
			}
			ackCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_ = d.Ack(ackCtx)
			cancel()
		}
	}()
	t.Cleanup(func() { close(stop); <-done; nc.Close() })
}

func publishTo(t *testing.T, nc *nats.Conn, subject string, msg any) {
	data, err := messages.Encode(msg)
	if err == nil {
		err = nc.Publish(subject, data)
	}
	if err == nil {
		err = nc.Flush()
	}
	if err != nil {
		t.Errorf("publish %T: %v", msg, err)
	}
}

func (tn *testNode) eventsOfType(id string, typ messages.EventType) []any {
	var out []any
	for _, e := range tn.sessionEvents(id) {
		if e.Type == typ {
			v, _ := e.DecodeData()
			out = append(out, v)
		}
	}
	return out
}

// With placement workers, a child becomes a SpawnTask on the stream; a worker takes it, and
// its result reaches the parent exactly once, with the worker's name, whatever else workers
// publish (a duplicate, a result for a task this Node never dispatched).
func TestRemoteChildRunsOnAWorkerAndReportsOnce(t *testing.T) {
	tn, cluster := startDispatchNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "find_a", "agent_type": "explorer", "message": "where is alpha?"}}]},
		{"expect": "remote says alpha", "text": "the worker answered"}]}`, time.Minute)
	got := make(chan *messages.SpawnTask, 4)
	fakeWorker(t, cluster.URL(), tn.NS, "w1", func(nc *nats.Conn, task *messages.SpawnTask) {
		got <- task
		results := messages.WorkerResultsSubject(tn.NS, "w1")
		publishTo(t, nc, results, &messages.TaskLease{Task: task.ID, Worker: "w1", Until: time.Now().Add(time.Minute), Attempt: task.Attempt})
		r := &messages.AgentResult{Handle: task.Start.Agent, Session: task.ID, Role: task.Start.Role, Status: messages.AgentDone,
			Summary: "remote says alpha is at a.txt:1", Worker: "w1"}
		publishTo(t, nc, results, &messages.AgentResult{Handle: "root/ghost", Session: "p1-ghost", Status: messages.AgentDone, Summary: "forged"})
		publishTo(t, nc, results, r)
		publishTo(t, nc, results, r) // a duplicate (a redelivered task that finished twice)
	})
	id := tn.startWith(t, messages.StartSession{ID: "p1", Task: "go", Mode: messages.ModeYolo, Placement: "workers"})
	fin := tn.waitFinished(t, id)
	if fin.Status != messages.StatusDone || fin.Final != "the worker answered" {
		t.Fatalf("parent finished: %+v", fin)
	}
	task := <-got
	if task.ID != "p1-find_a" || task.Parent != "p1" || task.Project != tn.NS || task.ParentNode != tn.ID ||
		task.Start.Role != "explorer" || task.Start.Env != nil || task.Writes || task.Repo.Base == "" || task.Attempt != 1 {
		t.Errorf("spawn task: %+v", task)
	}
	finished := tn.eventsOfType(id, messages.EventAgentFinished)
	if len(finished) != 1 {
		t.Fatalf("%d agent.finished events, want exactly 1: %+v", len(finished), finished)
	}
	if r := finished[0].(*messages.AgentResult); r.Handle != "root/find_a" || r.Worker != "w1" || r.Status != messages.AgentDone {
		t.Errorf("agent.finished: %+v", r)
	}
	spawned := tn.eventsOfType(id, messages.EventAgentSpawned)
	if len(spawned) != 2 || spawned[0].(*messages.AgentSpawnedData).State != messages.AgentQueued ||
		spawned[1].(*messages.AgentSpawnedData).Worker != "w1" || spawned[1].(*messages.AgentSpawnedData).State != messages.AgentRunning {
		t.Errorf("agent.spawned: %+v", spawned)
	}
	if evs := tn.sessionEvents("p1-find_a"); len(evs) != 0 {
		t.Errorf("the remote child also ran on the parent's node: %d events", len(evs))
	}
	if len(tn.requestsOf("root/find_a")) != 0 {
		t.Error("the remote child called the parent's model")
	}
}

// With placement workers and no worker attached, children run here, with one warning.
func TestWorkersPlacementWithNoWorkerFallsBackLocalOnce(t *testing.T) {
	tn, _ := startDispatchNode(t, `{"turns": [
		{"tool_calls": [
			{"name": "spawn_agent", "args": {"task_name": "a", "agent_type": "explorer", "message": "look"}},
			{"name": "spawn_agent", "args": {"task_name": "b", "agent_type": "explorer", "message": "look"}}]},
		{"expect": "local a", "text": "done here"}],
	"agents": {"a": {"turns": [{"text": "local a"}]}, "b": {"turns": [{"text": "local b"}]}}}`, time.Minute)
	id := tn.startWith(t, messages.StartSession{ID: "p1", Task: "go", Mode: messages.ModeYolo, Placement: "workers"})
	fin := tn.waitFinished(t, id)
	if fin.Status != messages.StatusDone {
		t.Fatalf("parent finished: %+v", fin)
	}
	res := tn.agentResults(id)
	if res["root/a"] == nil || res["root/a"].Summary != "local a" || res["root/a"].Worker != "" || res["root/b"] == nil {
		t.Fatalf("results: %+v", res)
	}
	var warnings []string
	for _, v := range tn.eventsOfType(id, messages.EventError) {
		warnings = append(warnings, v.(*messages.ErrorData).Message)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "no worker is attached") {
		t.Errorf("warnings = %q; want one saying no worker is attached", warnings)
	}
}

// A child whose worker stops renewing its lease fails once the grace has passed; a cancel
// for a running remote child goes to its worker's inbox for it.
func TestRemoteChildWhoseLeaseLapsesFails(t *testing.T) {
	tn, cluster := startDispatchNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "slow", "agent_type": "worker", "message": "build it"}}]},
		{"expect": "stopped renewing its lease", "text": "the worker died"}]}`, 2*time.Second)
	fakeWorker(t, cluster.URL(), tn.NS, "w2", func(nc *nats.Conn, task *messages.SpawnTask) {
		if !task.Writes {
			t.Errorf("a worker-role child was sent as read-only: %+v", task)
		}
		publishTo(t, nc, messages.WorkerResultsSubject(tn.NS, "w2"),
			&messages.TaskLease{Task: task.ID, Worker: "w2", Until: time.Now().Add(time.Second), Attempt: task.Attempt})
	})
	id := tn.startWith(t, messages.StartSession{ID: "p1", Task: "go", Mode: messages.ModeYolo, Placement: "auto"})
	fin := tn.waitFinished(t, id)
	r := tn.agentResults(id)["root/slow"]
	if fin.Status != messages.StatusDone || r == nil || r.Status != messages.AgentFailed || r.Worker != "w2" {
		t.Fatalf("parent %+v, child result %+v", fin, r)
	}
	if !strings.Contains(r.Error, "w2 stopped renewing its lease") {
		t.Errorf("error = %q", r.Error)
	}
}

// What a parent says to a remote child after it started reaches the worker's inbox for that
// child: send_agent, the parent's mode change (within the child's role), cancel_agent.
func TestMessagesForARemoteChildReachItsWorker(t *testing.T) {
	tn, cluster := startDispatchNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "far", "agent_type": "worker", "message": "build", "background": true}}]},
		{"text": "spawned"},
		{"tool_calls": [{"name": "send_agent", "args": {"handle": "root/far", "message": "also b"}}]},
		{"text": "noted"},
		{"tool_calls": [{"name": "cancel_agent", "args": {"handle": "root/far"}}]},
		{"text": "stopped"}]}`, time.Minute)
	inbox := make(chan any, 16)
	fakeWorker(t, cluster.URL(), tn.NS, "w1", func(nc *nats.Conn, task *messages.SpawnTask) {
		results := messages.WorkerResultsSubject(tn.NS, "w1")
		sub, err := nc.Subscribe(messages.WorkerInboxSubject(tn.NS, "w1", task.ID), func(m *nats.Msg) {
			msg, err := messages.Decode(m.Data)
			if err != nil {
				t.Errorf("undecodable message for the child: %v", err)
				return
			}
			inbox <- msg
			if _, ok := msg.(*messages.Cancel); ok {
				publishTo(t, nc, results, &messages.AgentResult{Handle: task.Start.Agent, Session: task.ID, Role: task.Start.Role,
					Status: messages.AgentCancelled, Worker: "w1", Error: "cancelled by its parent"})
			}
		})
		if err != nil {
			t.Error(err)
			return
		}
		t.Cleanup(func() { _ = sub.Unsubscribe() })
		publishTo(t, nc, results, &messages.TaskLease{Task: task.ID, Worker: "w1", Until: time.Now().Add(time.Minute), Attempt: task.Attempt})
	})
	id := tn.startInteractive(t, messages.StartSession{ID: "p1", Task: "go", Placement: "workers"})
	checkFor(t, 30*time.Second, func() error {
		for _, v := range tn.eventsOfType(id, messages.EventAgentSpawned) {
			if v.(*messages.AgentSpawnedData).Worker == "w1" {
				return nil
			}
		}
		return fmt.Errorf("no worker took the child yet")
	})
	next := func(want string) any {
		t.Helper()
		select {
		case m := <-inbox:
			if fmt.Sprintf("%T", m) != want {
				t.Fatalf("the child got %T %+v, want %s", m, m, want)
			}
			return m
		case <-time.After(testwait.Scale(30 * time.Second)):
			t.Fatalf("the child never got a %s", want)
		}
		return nil
	}
	if _, err := tn.client.Input(id, "tell it"); err != nil {
		t.Fatal(err)
	}
	if m := next("*messages.SendAgent").(*messages.SendAgent); m.Message != "also b" || m.Handle != "root/far" {
		t.Errorf("note = %+v", m)
	}
	tn.waitIdleText(t, id, "noted")
	if _, err := tn.client.SetMode(id, "auto-edit"); err != nil {
		t.Fatal(err)
	}
	if m := next("*messages.SetMode").(*messages.SetMode); m.Mode != messages.ModeAutoEdit {
		t.Errorf("mode change = %+v", m)
	}
	if _, err := tn.client.Input(id, "stop it"); err != nil {
		t.Fatal(err)
	}
	next("*messages.Cancel")
	checkFor(t, 30*time.Second, func() error {
		r := tn.agentResults(id)["root/far"]
		if r == nil {
			return fmt.Errorf("no result yet")
		}
		if r.Status != messages.AgentCancelled || r.Worker != "w1" {
			t.Fatalf("result = %+v", r)
		}
		return nil
	})
}

// waitIdleText waits until the session's model said text (a turn ended with it).
func (tn *testNode) waitIdleText(t *testing.T, id, text string) {
	t.Helper()
	checkFor(t, 30*time.Second, func() error {
		for _, v := range tn.eventsOfType(id, messages.EventTextDelta) {
			if d, ok := v.(*messages.DeltaData); ok && strings.Contains(d.Text, text) {
				return nil
			}
		}
		return fmt.Errorf("the model has not said %q yet", text)
	})
}

// A parent whose node stops while its child runs on a worker collects the child's result when
// it is resumed on a new node: the child is adopted, not marked interrupted.
func TestResumedParentCollectsItsRemoteChildsResult(t *testing.T) {
	script := `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "far", "agent_type": "worker", "message": "build", "background": true}}]},
		{"text": "spawned"}]}`
	cluster := natstest.Start(t, natstest.Options{})
	root := gitRoot(t)
	first, err := StartNode(dispatchNodeOptions(t, root, cluster.URL(), script, time.Minute, &testNode{}))
	if err != nil {
		t.Fatal(err)
	}
	client, err := first.Client()
	if err != nil {
		t.Fatal(err)
	}
	taken, finish := make(chan *messages.SpawnTask, 1), make(chan struct{})
	fakeWorker(t, cluster.URL(), first.NS, "w1", func(nc *nats.Conn, task *messages.SpawnTask) {
		results := messages.WorkerResultsSubject(first.NS, "w1")
		publishTo(t, nc, results, &messages.TaskLease{Task: task.ID, Worker: "w1", Until: time.Now().Add(time.Minute), Attempt: task.Attempt})
		taken <- task
		<-finish // the child runs on while its parent's node goes away and comes back
		publishTo(t, nc, results, &messages.TaskLease{Task: task.ID, Worker: "w1", Until: time.Now().Add(time.Minute), Attempt: task.Attempt})
		publishTo(t, nc, results, &messages.AgentResult{Handle: task.Start.Agent, Session: task.ID, Role: task.Start.Role,
			Status: messages.AgentDone, Worker: "w1", Summary: "built while you were away"})
	})
	task := startAndStopWithRemoteChild(t, first, client, root, taken)

	tn := &testNode{}
	second, err := StartNode(dispatchNodeOptions(t, root, cluster.URL(), script, time.Minute, tn))
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, second)
	if err := tn.client.StartSession(&messages.StartSession{ID: "p1", Resume: true, Model: "scripted", Mode: messages.ModeYolo,
		Workspace: root, Interactive: true, Placement: "workers"}); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 30*time.Second, func() error { _, err := tn.client.Status("p1"); return err })
	close(finish)
	checkFor(t, 30*time.Second, func() error {
		r := tn.agentResults("p1")["root/far"]
		if r == nil {
			return fmt.Errorf("no result yet")
		}
		if r.Status != messages.AgentDone || r.Summary != "built while you were away" || r.Session != task.ID || r.Worker != "w1" {
			t.Fatalf("result = %+v", r)
		}
		return nil
	})
}

// A task no worker can finish exhausts its deliveries; its dead letter fails the child.
func TestRemoteChildWhoseTaskWentDeadFails(t *testing.T) {
	tn, cluster := startDispatchNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "poison", "agent_type": "worker", "message": "crash"}}]},
		{"expect": "the task was given up", "text": "it went dead"}]}`, time.Minute)
	tries := make(chan int, 16)
	fakeWorkerAcking(t, cluster.URL(), tn.NS, func(nc *nats.Conn, task *messages.SpawnTask) { tries <- task.Attempt }, false)
	id := tn.startWith(t, messages.StartSession{ID: "p1", Task: "go", Mode: messages.ModeYolo, Placement: "workers"})
	fin := tn.waitFinished(t, id)
	r := tn.agentResults(id)["root/poison"]
	if fin.Status != messages.StatusDone || r == nil || r.Status != messages.AgentFailed || !strings.Contains(r.Error, "deliveries") {
		t.Fatalf("parent %+v, child %+v", fin, r)
	}
	if n := len(tries); n != taskqueue.DefaultMaxDeliver {
		t.Errorf("the task was tried %d times, want %d", n, taskqueue.DefaultMaxDeliver)
	}
}

// startAndStopWithRemoteChild starts session p1 (placement workers) on first through client,
// waits until a worker took its child and the parent recorded it as that worker's, then closes
// the client and the Node while the child runs on: the child's task.
func startAndStopWithRemoteChild(t *testing.T, first *Node, client *Client, root string, taken <-chan *messages.SpawnTask) *messages.SpawnTask {
	t.Helper()
	if err := client.StartSession(&messages.StartSession{ID: "p1", Task: "go", Model: "scripted", Mode: messages.ModeYolo,
		Workspace: root, Interactive: true, Placement: "workers"}); err != nil {
		t.Fatal(err)
	}
	var task *messages.SpawnTask
	select {
	case task = <-taken:
	case <-time.After(testwait.Scale(30 * time.Second)):
		t.Fatal("no worker took the child")
	}
	checkFor(t, 30*time.Second, func() error {
		recs, err := storedAgentRecords(first.Store(), "p1")
		if err != nil || len(recs) != 1 || recs[0].Worker != "w1" {
			return fmt.Errorf("records %+v, %v", recs, err)
		}
		return nil
	})
	client.Close()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	return task
}
