package actors

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// A child finishes on its worker while its parent's Node is down: the result the worker kept
// on the bus reaches the resumed parent exactly once (the live publish nobody heard is lost),
// and the bus forgets it once the parent recorded it.
func TestResumedParentCollectsAResultFinishedWhileItsNodeWasDown(t *testing.T) {
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
	ns := first.NS
	taken, finish, finished := make(chan *messages.SpawnTask, 1), make(chan struct{}), make(chan struct{})
	fakeWorker(t, cluster.URL(), ns, "w1", func(nc *nats.Conn, task *messages.SpawnTask) {
		results := messages.WorkerResultsSubject(ns, "w1")
		publishTo(t, nc, results, &messages.TaskLease{Task: task.ID, Worker: "w1", Until: time.Now().Add(time.Minute), Attempt: task.Attempt})
		taken <- task
		<-finish
		// As a worker does (worker_task.go): keep the result, then publish it, then ack.
		r := &messages.AgentResult{Handle: task.Start.Agent, Session: task.ID, Role: task.Start.Role,
			Status: messages.AgentDone, Worker: "w1", Summary: "built while you were away"}
		if err := keptResults(t, nc, ns).Put(context.Background(), task.ID, r); err != nil {
			t.Errorf("keep the result: %v", err)
		}
		publishTo(t, nc, results, r)
		close(finished)
	})
	task := startAndStopWithRemoteChild(t, first, client, root, taken)
	close(finish) // the child finishes while no Node listens
	select {
	case <-finished:
	case <-time.After(testwait.Scale(30 * time.Second)):
		t.Fatal("the worker did not finish")
	}

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
	nc, err := nats.Connect(cluster.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	kept := keptResults(t, nc, ns)
	checkFor(t, 30*time.Second, func() error {
		if v, err := kept.Get(context.Background(), task.ID); v != nil || err != nil {
			return fmt.Errorf("the bus still keeps %v (%v)", v, err)
		}
		return nil
	})
	n := 0
	for _, e := range tn.sessionEvents("p1") {
		if e.Type == messages.EventAgentFinished {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d agent.finished events, want 1", n)
	}
}

// keptResults opens the project's results bucket on nc.
func keptResults(t *testing.T, nc *nats.Conn, ns string) *taskqueue.Results {
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
	defer cancel()
	r, err := taskqueue.OpenResults(ctx, js, ns, 1)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
