package taskqueue

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
	t.Cleanup(cancel)
	return ctx
}

// nextTask polls Next until a task arrives (bounded).
func nextTask(t *testing.T, q *Queue) *Delivery {
	t.Helper()
	var d *Delivery
	testwait.For(t, 60*time.Second, func() error {
		var err error
		d, err = q.Next()
		return err
	})
	return d
}

func TestStreamAndConsumerConfig(t *testing.T) {
	nc := connect(t, startJetStream(t))
	ctx := ctxT(t)
	q, err := OpenConsumer(ctx, nc, Config{Namespace: "p1", AckWait: 7 * time.Second, MaxDeliver: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Config(); got.AckWait != 7*time.Second || got.Consumer != DefaultConsumer {
		t.Fatalf("effective config = %+v", got)
	}
	js, _ := jetstream.New(nc)
	s, err := js.Stream(ctx, StreamName("p1"))
	if err != nil {
		t.Fatal(err)
	}
	sc := s.CachedInfo().Config
	if sc.Retention != jetstream.WorkQueuePolicy || sc.Storage != jetstream.FileStorage || sc.Replicas != 1 ||
		len(sc.Subjects) != 1 || sc.Subjects[0] != messages.TasksSubject("p1") {
		t.Fatalf("stream config = %+v", sc)
	}
	c, err := js.Consumer(ctx, StreamName("p1"), DefaultConsumer)
	if err != nil {
		t.Fatal(err)
	}
	cc := c.CachedInfo().Config
	if cc.AckPolicy != jetstream.AckExplicitPolicy || cc.AckWait != 7*time.Second || cc.MaxDeliver != 4 {
		t.Fatalf("consumer config = %+v", cc)
	}
	// A second opener (another worker, a Node) uses the same stream and consumer.
	if _, err := OpenPublisher(ctx, nc, Config{Namespace: "p1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenConsumer(ctx, nc, Config{Namespace: "p1", AckWait: 7 * time.Second, MaxDeliver: 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenPublisher(ctx, nc, Config{Namespace: "a.b"}); err == nil {
		t.Fatal("a project id with a dot was accepted")
	}
}

func TestPublishNextAckOnce(t *testing.T) {
	nc := connect(t, startJetStream(t))
	ctx := ctxT(t)
	pub, err := OpenPublisher(ctx, nc, Config{Namespace: "p2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"t1", "t2", "t1"} { // t1 again: a retried publish
		if err := pub.Publish(ctx, task(id)); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := pub.Pending(ctx); n != 2 {
		t.Fatalf("pending = %d, want 2 (a re-published id is not queued twice)", n)
	}
	q, err := OpenConsumer(ctx, connect(t, startURL(nc)), Config{Namespace: "p2"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for range 2 {
		d := nextTask(t, q)
		if d.Task.Attempt != 1 {
			t.Fatalf("attempt = %d, want 1", d.Task.Attempt)
		}
		got[d.Task.ID] = d.Task.Parent
		if err := d.Ack(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got["t1"] != "parent of t1" || got["t2"] != "parent of t2" {
		t.Fatalf("got %v", got)
	}
	if n, _ := pub.Pending(ctx); n != 0 {
		t.Fatalf("pending after acks = %d, want 0 (work-queue retention)", n)
	}
	if d, err := q.Next(); !errors.Is(err, ErrNoTask) {
		t.Fatalf("Next on an empty queue = %v, %v", d, err)
	}
	if _, err := pub.Next(); err == nil {
		t.Fatal("a publisher consumed")
	}
}

func startURL(nc *nats.Conn) string { return nc.ConnectedUrl() }

func task(id string) *messages.SpawnTask {
	return &messages.SpawnTask{ID: id, Project: "p", ParentNode: "n1", Parent: "parent of " + id,
		Start: messages.StartSession{ID: id}}
}

// helperEnv makes the test binary a consumer that takes one task, says so, and hangs until
// it is killed: a worker that dies mid-task without acking or nakking.
const helperEnv = "TASKQUEUE_TEST_HOLDER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(holdOneTask(spec))
	}
	os.Exit(m.Run())
}

func holdOneTask(spec string) int {
	url, ns, _ := strings.Cut(spec, " ")
	nc, err := nats.Connect(url)
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	q, err := OpenConsumer(context.Background(), nc, Config{Namespace: ns, AckWait: 2 * time.Second})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	for {
		d, err := q.Next()
		if errors.Is(err, ErrNoTask) {
			continue
		}
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("took", d.Task.ID, d.Task.Attempt)
		select {} // mid-task, forever
	}
}

func TestKilledConsumerTaskIsRedeliveredAfterAckWait(t *testing.T) {
	url := startJetStream(t)
	nc := connect(t, url)
	ctx := ctxT(t)
	const ackWait = 2 * time.Second
	q, err := OpenConsumer(ctx, nc, Config{Namespace: "p3", AckWait: ackWait})
	if err != nil {
		t.Fatal(err)
	}
	holder := exec.Command(os.Args[0], "-test.run=^$")
	holder.Env = append(os.Environ(), helperEnv+"="+url+" p3")
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Process.Kill(); _ = holder.Wait() })
	if err := q.Publish(ctx, task("t1")); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 64)
	n, err := out.Read(line)
	if err != nil || !strings.HasPrefix(string(line[:n]), "took t1 1") {
		t.Fatalf("holder said %q, %v", line[:n], err)
	}
	taken := time.Now()
	if err := holder.Process.Kill(); err != nil { // SIGKILL: no nak, no goodbye
		t.Fatal(err)
	}
	d := nextTask(t, q)
	// The attempt is the server's delivery count: 2 as a rule, but under load nats-server 2.9
	// was seen to report 1 for this redelivery, so it is not asserted (a worker resumes from
	// mirrored state, not from the count: internal/taskstate PlanFor).
	if d.Task.ID != "t1" || d.Task.Attempt < 1 {
		t.Fatalf("redelivered %q attempt %d, want t1", d.Task.ID, d.Task.Attempt)
	}
	if waited := time.Since(taken); waited < ackWait*9/10 {
		t.Fatalf("redelivered after %v, before the AckWait of %v", waited, ackWait)
	}
	if err := d.Ack(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestKeepAliveHoldsTaskPastAckWait(t *testing.T) {
	url := startJetStream(t)
	ctx := ctxT(t)
	const ackWait = 2 * time.Second
	cfg := Config{Namespace: "p4", AckWait: ackWait}
	a, err := OpenConsumer(ctx, connect(t, url), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenConsumer(ctx, connect(t, url), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Publish(ctx, task("t1")); err != nil {
		t.Fatal(err)
	}
	d := nextTask(t, a)
	beats := make(chan struct{}, 100)
	stop := d.KeepAlive(func() { beats <- struct{}{} })
	// b polls for three AckWaits while a works: the task must not come to b.
	until := time.Now().Add(3 * ackWait)
	for time.Now().Before(until) {
		if got, err := b.Next(); err == nil {
			t.Fatalf("task %s (attempt %d) redelivered while its holder sent heartbeats", got.Task.ID, got.Task.Attempt)
		}
	}
	stop()
	if len(beats) < 3 {
		t.Fatalf("%d heartbeats in three AckWaits, want at least 3", len(beats))
	}
	if err := d.Ack(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := a.Pending(ctx); n != 0 {
		t.Fatalf("pending = %d after ack", n)
	}
}

func TestNakRedeliversAndPoisonTaskGoesToDeadLetters(t *testing.T) {
	url := startJetStream(t)
	nc := connect(t, url)
	ctx := ctxT(t)
	q, err := OpenConsumer(ctx, nc, Config{Namespace: "p5", MaxDeliver: 2})
	if err != nil {
		t.Fatal(err)
	}
	dead := make(chan *nats.Msg, 4)
	sub, err := connect(t, url).ChanSubscribe(messages.DeadTasksSubject("p5"), dead)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	failures := make(chan error, 4)
	stop, err := q.DeadLetters(func(err error) { failures <- err })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := q.Publish(ctx, task("poison")); err != nil {
		t.Fatal(err)
	}
	for attempt := 1; attempt <= 2; attempt++ {
		d := nextTask(t, q)
		if d.Task.ID != "poison" || d.Task.Attempt != attempt {
			t.Fatalf("got %s attempt %d, want poison attempt %d", d.Task.ID, d.Task.Attempt, attempt)
		}
		if err := d.Nak(); err != nil { // a nak hands it back at once: no AckWait to sit out
			t.Fatal(err)
		}
	}
	// The server notices the exhausted task when it next looks for one to hand out: keep
	// pulling, as live workers do, until the dead letter shows up.
	var dl *messages.DeadTask
	testwait.For(t, 30*time.Second, func() error {
		select {
		case m := <-dead:
			v, err := messages.Decode(m.Data)
			if err != nil {
				t.Fatalf("dead letter does not decode: %v", err)
			}
			dl, _ = v.(*messages.DeadTask)
			return nil
		case err := <-failures:
			t.Fatalf("dead letter failed: %v", err)
		default:
		}
		if d, err := q.Next(); err == nil {
			t.Fatalf("task %s delivered again (attempt %d) past MaxDeliver", d.Task.ID, d.Task.Attempt)
		}
		return errors.New("no dead letter yet")
	})
	if dl == nil || dl.Task != "poison" || dl.Deliveries != 2 || dl.Parent != "parent of poison" || dl.ParentNode != "n1" {
		t.Fatalf("dead letter = %+v", dl)
	}
	// It is kept with the project's results too, for a parent whose Node was down (results.go).
	results, err := OpenResults(ctx, q.js, "p5", 1)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := results.Get(ctx, "poison"); err != nil || v.(*messages.DeadTask).Deliveries != 2 {
		t.Fatalf("kept dead letter = %#v, %v", v, err)
	}
	testwait.For(t, 10*time.Second, func() error {
		if n, _ := q.Pending(ctx); n != 0 {
			return fmt.Errorf("%d tasks still in the stream after the dead letter", n)
		}
		return nil
	})
}

func TestUndecodableTaskIsDroppedNotRedelivered(t *testing.T) {
	url := startJetStream(t)
	nc := connect(t, url)
	ctx := ctxT(t)
	q, err := OpenConsumer(ctx, nc, Config{Namespace: "p6", AckWait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.js.Publish(ctx, messages.TasksSubject("p6"), []byte("not a task")); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, 30*time.Second, func() error {
		_, err := q.Next()
		if errors.Is(err, ErrBadTask) {
			return nil
		}
		return fmt.Errorf("Next = %v, want ErrBadTask", err)
	})
	testwait.For(t, 10*time.Second, func() error {
		if n, _ := q.Pending(ctx); n != 0 {
			return fmt.Errorf("%d tasks still in the stream after the bad one was terminated", n)
		}
		return nil
	})
}

func TestJetStreamOffIsSaidPlainly(t *testing.T) {
	c := natstest.Start(t, natstest.Options{NoJetStream: true})
	_, err := OpenConsumer(ctxT(t), connect(t, c.URL()), Config{Namespace: "p7"})
	if !errors.Is(err, ErrNoJetStream) {
		t.Fatalf("err = %v, want ErrNoJetStream", err)
	}
}
