package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// startRealWorker runs a real worker for tn's project on cluster, on the scripted provider
// (recorded in the returned provider), until the test ends.
func startRealWorker(t *testing.T, tn *testNode, cluster *natstest.Cluster, name, script string) *recordingProvider {
	t.Helper()
	s, err := llm.ParseScript("test", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	prov := &recordingProvider{Provider: llm.NewScriptedFrom(s)}
	w, err := StartWorker(WorkerOptions{
		Name: name, NS: tn.NS, Slots: 2, StateDir: t.TempDir(), RepoCache: t.TempDir(),
		Queue: taskqueue.Config{AckWait: 10 * time.Second},
		Node: NodeOptions{Root: t.TempDir(), NATS: cluster.URL(), Retry: llm.RetryPolicy{MaxAttempts: 1},
			Provider: func(string, string, func(string) string) (llm.Provider, string, error) {
				return prov, "gemini-1.5-pro", nil
			}},
	})
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
	return prov
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// objectNames lists the project's code bucket.
func objectNames(t *testing.T, url, ns string) []string {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(20*time.Second))
	defer cancel()
	st, err := js.ObjectStore(ctx, gitship.BucketName(ns))
	if err != nil {
		t.Fatal(err)
	}
	infos, err := st.List(ctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
		t.Fatal(err)
	}
	var names []string
	for _, i := range infos {
		names = append(names, i.Name)
	}
	return names
}

// A writing child on a worker whose result is over the bus's 1 MiB (the stock server's max
// payload: here its diff stat, for 14,000 new files) reaches its parent whole: the worker sends
// a preview naming the whole in the project's object store, and the parent's Node reads it
// back and imports the branch. The child inherits (fork) a context also over 1 MiB, which
// travels the same way. The child's oversized events reach watchers with their data in the
// object store, not in the worker's own store. Once the parent has the result, nothing of the
// task is left in the object store but the base bundle.
func TestWorkerLargePayloadsGoThroughTheObjectStore(t *testing.T) {
	bigParent := strings.Repeat("parent context ", 90_000) // ~1.3 MB
	bigAnswer := "ANSWER " + strings.Repeat("0123456789", 130_000)
	script := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	parentScript := script(map[string]any{"turns": []any{
		map[string]any{"text": bigParent, "tool_calls": []any{map[string]any{"name": "read_file", "args": map[string]any{"path": "a.txt"}}}},
		map[string]any{"tool_calls": []any{map[string]any{"name": "spawn_agent", "args": map[string]any{
			"task_name": "big", "agent_type": "worker", "message": "answer at length", "context": "fork", "worktree": true}}}},
		map[string]any{"text": "got it"}}})
	// Names long enough that git's diff stat abbreviates them, so each file is a full line.
	makeFiles := `mkdir -p gen && cd gen && for i in $(seq 14000); do echo $i > file-number-$i-with-a-long-name-that-git-diff-stat-abbreviates.txt; done`
	childScript := script(map[string]any{"turns": []any{map[string]any{"text": "unused"}}, "agents": map[string]any{"*": map[string]any{"turns": []any{
		map[string]any{"expect": "answer at length", "tool_calls": []any{map[string]any{"name": "bash", "args": map[string]any{"command": makeFiles, "timeout_s": 300}}}},
		map[string]any{"text": bigAnswer}}}}})
	// A model whose window takes a 1.3 MB context (the scripted provider serves it).
	const model = "gemini-1.5-pro"
	cluster := natstest.Start(t, natstest.Options{})
	tn := &testNode{}
	opts := dispatchNodeOptions(t, gitRoot(t), cluster.URL(), parentScript, time.Minute, tn)
	opts.Provider = func(string, string, func(string) string) (llm.Provider, string, error) {
		return tn.provider, model, nil
	}
	node, err := StartNode(opts)
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	worker := startRealWorker(t, tn, cluster, "w1", childScript)

	id := tn.startWith(t, messages.StartSession{ID: "p1", Task: "go", Mode: messages.ModeYolo, Placement: "workers"})
	fin := tn.waitFinishedWithin(t, id, 3*time.Minute)
	if fin.Status != messages.StatusDone {
		t.Fatalf("parent finished: %+v", fin)
	}
	// The parent's record of the child's result is whole (its agent.finished data, kept in
	// the parent's own store because it is over the bus limit too).
	var got *messages.AgentResult
	for _, e := range tn.sessionEvents(id) {
		if e.Type != messages.EventAgentFinished {
			continue
		}
		if e.DataRef != "" {
			whole, err := tn.Node.store.Artifact(e.DataRef)
			if err != nil {
				t.Fatal(err)
			}
			e.Data = whole
		}
		v, err := e.DecodeData()
		if err != nil {
			t.Fatal(err)
		}
		got = v.(*messages.AgentResult)
	}
	if got == nil || len(got.DiffStat) < 1<<20 || !strings.Contains(got.DiffStat, "14000 files changed") || got.Worker != "w1" ||
		got.Full != nil || got.Status != messages.AgentDone || got.Branch != "troupe/big" || !strings.HasPrefix(got.Summary, "ANSWER 0123") {
		if got != nil {
			got.Summary, got.DiffStat = fmt.Sprintf("%d bytes", len(got.Summary)), fmt.Sprintf("%d bytes", len(got.DiffStat))
		}
		t.Fatalf("the parent's result: %+v", got)
	}
	out, err := exec.Command("git", "-C", tn.Root, "show", "troupe/big:gen/file-number-13999-with-a-long-name-that-git-diff-stat-abbreviates.txt").Output()
	if err != nil || string(out) != "13999\n" {
		t.Fatalf("the child's branch in the parent: %q, %v", out, err)
	}
	// The child inherited the parent's context whole, on the worker.
	reqs := worker.all()
	if len(reqs) == 0 {
		t.Fatal("the worker's model was never asked")
	}
	inherited := false
	for _, m := range reqs[0].Messages {
		inherited = inherited || strings.Contains(m.Content, bigParent)
	}
	if !inherited {
		t.Error("the child did not inherit the parent's 1.3 MB context")
	}
	// The child's own oversized event (its answer) came with its data in the object store.
	var byObject int
	for _, e := range tn.sessionEvents("p1-big") {
		if e.DataRef != "" {
			t.Errorf("%s event of a worker's child names %s in the worker's own store", e.Type, e.DataRef)
		}
		if e.DataObject != nil {
			byObject++
			if !strings.HasPrefix(e.DataObject.Name, "evt/p1-big/") || e.DataObject.Bucket != gitship.BucketName(tn.NS) {
				t.Errorf("event data object: %+v", e.DataObject)
			}
		}
	}
	if byObject == 0 {
		t.Error("no event of the worker's child came with its data in the object store")
	}
	// Once the parent has the result, only the base bundle is left.
	testwait.For(t, 30*time.Second, func() error {
		for _, n := range objectNames(t, cluster.URL(), tn.NS) {
			if !strings.HasPrefix(n, "bundle/") {
				return fmt.Errorf("%s is left in the object store", n)
			}
		}
		return nil
	})
}
