package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// workerBench is a worker on a stock nats-server, what the results subject carried, and a
// publisher for tasks.
type workerBench struct {
	url     string
	root    string
	nc      *nats.Conn
	pub     *taskqueue.Queue
	mu      sync.Mutex
	results []*messages.AgentResult
	leases  []*messages.TaskLease
}

const workerNS = "projw"

func startWorkerBench(t *testing.T, script string, ackWait time.Duration) (*workerBench, *Worker) {
	t.Helper()
	return startWorkerBenchWith(t, script, ackWait, nil)
}

// startWorkerBenchWith is startWorkerBench with the worker's options changed by edit.
func startWorkerBenchWith(t *testing.T, script string, ackWait time.Duration, edit func(*WorkerOptions)) (*workerBench, *Worker) {
	t.Helper()
	c := natstest.Start(t, natstest.Options{})
	b := &workerBench{url: c.URL(), root: t.TempDir()}
	if real, err := filepath.EvalSymlinks(b.root); err == nil {
		b.root = real
	}
	os.WriteFile(filepath.Join(b.root, "a.txt"), []byte("alpha\n"), 0o644)
	s, err := llm.ParseScript("test", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	if b.nc, err = nats.Connect(b.url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.nc.Close)
	sub, err := b.nc.Subscribe(messages.AllWorkerResultsSubject(workerNS), func(m *nats.Msg) {
		v, err := messages.Decode(m.Data)
		if err != nil {
			t.Errorf("undecodable on the results subject: %v", err)
			return
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		switch v := v.(type) {
		case *messages.AgentResult:
			b.results = append(b.results, v)
		case *messages.TaskLease:
			b.leases = append(b.leases, v)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Unsubscribe() })
	opts := WorkerOptions{
		Name: "w1", NS: workerNS, Slots: 2, StateDir: t.TempDir(), RepoCache: t.TempDir(),
		Queue: taskqueue.Config{AckWait: ackWait},
		Node: NodeOptions{Root: b.root, NATS: b.url, Retry: llm.RetryPolicy{MaxAttempts: 1},
			Provider: func(string, string, func(string) string) (llm.Provider, string, error) {
				return llm.NewScriptedFrom(s), "scripted", nil
			},
			Tools: func() (*tools.Registry, error) { return tools.NewRegistry(tools.Builtins()...) }},
	}
	if edit != nil {
		edit(&opts)
	}
	w, err := StartWorker(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if err := w.Close(); err != nil {
			t.Errorf("close worker: %v", err)
		}
	})
	if b.pub, err = taskqueue.OpenPublisher(context.Background(), b.nc, taskqueue.Config{Namespace: workerNS}); err != nil {
		t.Fatal(err)
	}
	return b, w
}

func (b *workerBench) publish(t *testing.T, id, task string) {
	t.Helper()
	err := b.pub.Publish(context.Background(), &messages.SpawnTask{ID: id, Project: workerNS, ParentNode: "n1", Parent: "p1",
		Start: messages.StartSession{ID: id, Task: task, Model: "scripted", Mode: "yolo", Workspace: b.root,
			Agent: "root/" + id, Parent: "p1", Role: "general"}})
	if err != nil {
		t.Fatal(err)
	}
}

func (b *workerBench) resultsFor(id string) []*messages.AgentResult {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []*messages.AgentResult
	for _, r := range b.results {
		if r.Session == id {
			out = append(out, r)
		}
	}
	return out
}

func (b *workerBench) leaseFor(id string) *messages.TaskLease {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, l := range b.leases {
		if l.Task == id {
			return l
		}
	}
	return nil
}

// A task taken from the queue runs as a child session on the worker, with the worker's tools
// in the task's workspace; its projected result, stamped with the worker's name, goes to the
// worker's results subject after a lease, and the task leaves the queue.
func TestWorkerRunsATaskAndReportsItsResult(t *testing.T) {
	b, _ := startWorkerBench(t, `{"turns": [{"text": "parent"}], "agents": {"*": {"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"expect": "alpha", "text": "read it: alpha"}]}}}`, 5*time.Second)
	b.publish(t, "t1", "read a.txt")
	testwait.Until(t, 60*time.Second, func() bool { return len(b.resultsFor("t1")) > 0 }, "the task's result")
	r := b.resultsFor("t1")[0]
	if r.Worker != "w1" || r.Status != messages.AgentDone || r.Summary != "read it: alpha" {
		t.Fatalf("result = %+v", r)
	}
	if l := b.leaseFor("t1"); l == nil || l.Worker != "w1" || l.Attempt != 1 || !l.Until.After(time.Now().Add(-time.Minute)) {
		t.Fatalf("lease = %+v", l)
	}
	testwait.For(t, 10*time.Second, func() error {
		if n, _ := b.pub.Pending(context.Background()); n != 0 {
			return fmt.Errorf("%d tasks still queued after the result", n)
		}
		return nil
	})
	if n := len(b.resultsFor("t1")); n != 1 {
		t.Fatalf("%d results for one task", n)
	}
}

// A Cancel on the child's inbox on the worker (as the dispatching Node sends one) stops it:
// its result says cancelled, and the task is done with.
func TestWorkerChildCancelledOnItsWorkerInbox(t *testing.T) {
	b, _ := startWorkerBench(t, `{"turns": [{"text": "parent"}], "agents": {"*": {"turns": [{"delay_ms": 60000, "text": "too late"}]}}}`, 5*time.Second)
	b.publish(t, "t2", "wait")
	testwait.Until(t, 60*time.Second, func() bool { return b.leaseFor("t2") != nil }, "the task's lease")
	data, _ := messages.Encode(&messages.Cancel{Reason: "parent said stop"})
	testwait.For(t, 30*time.Second, func() error {
		if err := b.nc.Publish(messages.WorkerInboxSubject(workerNS, "w1", "t2"), data); err != nil {
			return err
		}
		if len(b.resultsFor("t2")) == 0 {
			return fmt.Errorf("no result yet")
		}
		return nil
	})
	if r := b.resultsFor("t2")[0]; r.Status != messages.AgentCancelled || r.Worker != "w1" {
		t.Fatalf("result = %+v", r)
	}
}

// A task whose workspace the worker has no copy of fails with a result that says so, once.
func TestWorkerReportsATaskItCannotStart(t *testing.T) {
	b, _ := startWorkerBench(t, `{"turns": [{"text": "never"}]}`, 5*time.Second)
	err := b.pub.Publish(context.Background(), &messages.SpawnTask{ID: "t3", Project: workerNS, Parent: "p1",
		Start: messages.StartSession{ID: "t3", Task: "x", Model: "scripted", Workspace: "/nonexistent/checkout", Parent: "p1"}})
	if err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 60*time.Second, func() bool { return len(b.resultsFor("t3")) > 0 }, "the failed result")
	if r := b.resultsFor("t3")[0]; r.Status != messages.AgentFailed || r.Worker != "w1" || r.Error == "" {
		t.Fatalf("result = %+v", r)
	}
}

func TestDecideTaskEnd(t *testing.T) {
	task := &messages.SpawnTask{ID: "t", Start: messages.StartSession{Agent: "root/t", Role: "general"}}
	done := &messages.AgentResult{Status: messages.AgentDone, Summary: "ok"}
	for _, tc := range []struct {
		name      string
		res       *messages.AgentResult
		abandoned bool
		want      messages.AgentState
		handBack  bool
	}{
		{"result reported", done, false, messages.AgentDone, false},
		{"result reported even when stopping", done, true, messages.AgentDone, false},
		{"no result, stopping: hand back", nil, true, "", true},
		{"interrupted by the stop: hand back", &messages.AgentResult{Status: messages.AgentInterrupted}, true, "", true},
		{"interrupted on its own: reported", &messages.AgentResult{Status: messages.AgentInterrupted}, false, messages.AgentInterrupted, false},
		{"no result, running: failed here", nil, false, messages.AgentFailed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, back := decideTaskEnd(task, "w9", tc.res, tc.abandoned)
			if back != tc.handBack {
				t.Fatalf("handBack = %v", back)
			}
			if back {
				return
			}
			if got.Status != tc.want || got.Worker != "w9" || got.Session != "t" {
				t.Fatalf("result = %+v", got)
			}
		})
	}
	if done.Worker != "" {
		t.Fatal("decideTaskEnd changed the child's result in place")
	}
}

// A writing task ships its code as git: the worker checks out the parent's commit (from the
// bundle in the object store) with the parent's uncommitted change applied, the child edits a
// file there, and its branch comes back as a bundle the parent imports like a local worktree.
func TestWorkerShipsCodeAndReturnsAWritingChildsBranch(t *testing.T) {
	b, w := startWorkerBench(t, `{"turns": [{"text": "parent"}], "agents": {"*": {"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "b.txt"}}]},
		{"expect": "uncommitted", "tool_calls": [{"name": "write_file", "args": {"path": "c.txt", "content": "made on the worker\n"}}]},
		{"text": "wrote c.txt"}]}}}`, 5*time.Second)
	parent := t.TempDir()
	gitIn(t, parent, "init", "-q")
	os.WriteFile(filepath.Join(parent, "a.txt"), []byte("alpha\n"), 0o644)
	gitIn(t, parent, "add", "-A")
	gitIn(t, parent, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
	os.WriteFile(filepath.Join(parent, "b.txt"), []byte("uncommitted\n"), 0o644)
	ctx := context.Background()
	repo, _, err := gitship.Prepare(ctx, parent, "t4", w.code.Objects, gitship.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = b.pub.Publish(ctx, &messages.SpawnTask{ID: "t4", Project: workerNS, Parent: "p1", Repo: *repo, Writes: true,
		Start: messages.StartSession{ID: "t4", Task: "write c.txt", Model: "scripted", Mode: "yolo", Workspace: "/parent/only/path",
			Agent: "root/t4", Parent: "p1"}})
	if err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 60*time.Second, func() bool { return len(b.resultsFor("t4")) > 0 }, "the writing task's result")
	r := b.resultsFor("t4")[0]
	if r.Status != messages.AgentDone || r.Branch != "troupe/t4" || r.Bundle == nil || !strings.Contains(r.DiffStat, "c.txt") {
		t.Fatalf("result = %+v", r)
	}
	if err := gitship.Import(ctx, parent, "t4", repo.Base, r, w.code.Objects, ""); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", parent, "show", "troupe/t4:c.txt").Output()
	if err != nil || string(out) != "made on the worker\n" {
		t.Fatalf("c.txt on troupe/t4 = %q, %v", out, err)
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// A Cancel for a child on a worker reaches the child's own children there: the grandchild,
// waiting on a model reply it would get in ten minutes, ends at once with its parent, and the
// child's result says cancelled.
func TestWorkerChildCancelReachesItsGrandchildren(t *testing.T) {
	b, _ := startWorkerBenchWith(t, `{"turns": [{"text": "parent"}], "agents": {
		"t5": {"turns": [
			{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "g1", "agent_type": "explorer", "message": "wait"}}]},
			{"text": "never"}]},
		"g1": {"turns": [{"delay_ms": 600000, "text": "too late"}]}}}`, 5*time.Second,
		func(o *WorkerOptions) { o.Node.Tools = nil }) // the Node's own tools: agent tools, narrowed per role

	var mu sync.Mutex
	grand, grandEnd := "", ""
	sub, err := b.nc.Subscribe(messages.ProjectEventsSubject(workerNS), func(m *nats.Msg) {
		var e messages.Envelope
		if json.Unmarshal(m.Data, &e) != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case e.Parent == "t5" && e.Type == messages.EventSessionStarted:
			grand = e.Session
		case e.Session == grand && grand != "" && e.Type == messages.EventSessionFinished:
			v, err := e.DecodeData()
			if err == nil {
				grandEnd = string(v.(*messages.SessionFinishedData).Status)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	b.publish(t, "t5", "spawn one and wait")
	testwait.Until(t, 60*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return grand != "" }, "the grandchild's start")
	data, _ := messages.Encode(&messages.Cancel{Reason: "parent said stop"})
	testwait.For(t, 30*time.Second, func() error {
		if err := b.nc.Publish(messages.WorkerInboxSubject(workerNS, "w1", "t5"), data); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if grandEnd == "" || len(b.resultsFor("t5")) == 0 {
			return fmt.Errorf("grandchild ended %q, %d results of the child", grandEnd, len(b.resultsFor("t5")))
		}
		return nil
	})
	if grandEnd != string(messages.StatusInterrupted) {
		t.Errorf("the grandchild ended %q, not interrupted by its parent's cancel", grandEnd)
	}
	if r := b.resultsFor("t5")[0]; r.Status != messages.AgentCancelled || r.Worker != "w1" {
		t.Fatalf("result = %+v", r)
	}
}
