package taskqueue

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/natstest"
)

// On a 3-node cluster the stream is replicated three times, and the queue keeps handing out
// and taking tasks with one server down (a crashed machine), from a client of another server.
func TestClusterReplicatesAndSurvivesAServer(t *testing.T) {
	c := natstest.Start(t, natstest.Options{Nodes: 3})
	ctx := ctxT(t)
	nc := connect(t, c.NodeURL(1))
	q, err := OpenConsumer(ctx, nc, Config{Namespace: "pc", AckWait: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	info, err := q.stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Config.Replicas != 3 || info.Config.Retention != jetstream.WorkQueuePolicy {
		t.Fatalf("stream on a 3-node cluster: replicas %d, retention %v", info.Config.Replicas, info.Config.Retention)
	}
	if err := q.Publish(ctx, task("before")); err != nil {
		t.Fatal(err)
	}
	c.Kill(0)
	if err := q.Publish(ctx, task("after")); err != nil {
		t.Fatalf("publish with one server down: %v", err)
	}
	got := map[string]bool{}
	for len(got) < 2 {
		d := nextTask(t, q)
		got[d.Task.ID] = true
		if err := d.Ack(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if !got["before"] || !got["after"] {
		t.Fatalf("took %v", got)
	}
}
