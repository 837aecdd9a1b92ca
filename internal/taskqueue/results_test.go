package taskqueue

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/messages"
)

// A finished task's outcome is kept under its id with the bucket's max age, read back as the
// typed message it was, and forgotten once its parent has it; what is no outcome is refused.
func TestResultsKeepReadAndForget(t *testing.T) {
	nc := connect(t, startJetStream(t))
	ctx := ctxT(t)
	js, _ := jetstream.New(nc)
	r, err := OpenResults(ctx, js, "p/6", 1)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, "troupe_results_p_6")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := kv.Status(ctx); err != nil || st.TTL() != ResultsMaxAge || st.History() != 1 {
		t.Fatalf("bucket status: %v, %v", st, err)
	}
	if v, err := r.Get(ctx, "t1"); v != nil || err != nil {
		t.Fatalf("an unknown task has %v, %v", v, err)
	}
	if err := r.Put(ctx, "t1", &messages.AgentResult{Session: "t1", Status: messages.AgentDone, Summary: "ok"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Put(ctx, "t2", &messages.DeadTask{Task: "t2", Deliveries: 5}); err != nil {
		t.Fatal(err)
	}
	if err := r.Put(ctx, "t3", &messages.TaskLease{Task: "t3"}); err == nil {
		t.Fatal("a lease was kept as an outcome")
	}
	if err := r.Put(ctx, "a.b", &messages.AgentResult{}); err == nil {
		t.Fatal("a task id with a dot was taken")
	}
	v, err := r.Get(ctx, "t1")
	if res, ok := v.(*messages.AgentResult); err != nil || !ok || res.Summary != "ok" {
		t.Fatalf("t1 = %#v, %v", v, err)
	}
	v, err = r.Get(ctx, "t2")
	if dead, ok := v.(*messages.DeadTask); err != nil || !ok || dead.Deliveries != 5 {
		t.Fatalf("t2 = %#v, %v", v, err)
	}
	if err := r.Remove(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove(ctx, "never"); err != nil {
		t.Fatal(err)
	}
	if v, err := r.Get(ctx, "t1"); v != nil || err != nil {
		t.Fatalf("a forgotten outcome is still there: %v, %v", v, err)
	}
	// Opened again (another worker or Node), it is the same bucket.
	again, err := OpenResults(ctx, js, "p/6", 1)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := again.Get(ctx, "t2"); v == nil {
		t.Fatal("a second handle does not see the kept dead letter")
	}
}

// Find tells a queued task from one a worker took, and knows nothing of an acked one.
func TestFindTellsQueuedFromDelivered(t *testing.T) {
	nc := connect(t, startJetStream(t))
	ctx := ctxT(t)
	pub, err := OpenPublisher(ctx, nc, Config{Namespace: "p7"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"acked", "taken", "waiting"} {
		if err := pub.Publish(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
	}
	// No worker ever joined: everything in the stream waits.
	got, err := pub.Find(ctx, []string{"taken", "waiting"})
	if err != nil || got["taken"] != Queued || got["waiting"] != Queued {
		t.Fatalf("before any worker: %v, %v", got, err)
	}
	q, err := OpenConsumer(ctx, nc, Config{Namespace: "p7", AckWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if d := nextTask(t, q); d.Task.ID != "acked" {
		t.Fatalf("first delivery %s", d.Task.ID)
	} else if err := d.Ack(ctx); err != nil {
		t.Fatal(err)
	}
	if d := nextTask(t, q); d.Task.ID != "taken" {
		t.Fatalf("second delivery %s", d.Task.ID)
	}
	got, err = pub.Find(ctx, []string{"acked", "taken", "waiting", "stranger"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Waiting{"taken": Delivered, "waiting": Queued}
	if len(got) != len(want) || got["taken"] != Delivered || got["waiting"] != Queued {
		t.Fatalf("Find = %v, want %v", got, want)
	}
}
