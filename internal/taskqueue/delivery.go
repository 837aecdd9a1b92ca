package taskqueue

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/messages"
)

// pollWait is how long one pull request waits on the server for a task. Short, so a stopping
// worker never leaves a pull pending that could still be handed a task it will not run.
const pollWait = 2 * time.Second

// Delivery is one task handed to this worker. Exactly one goroutine (the slot that runs the
// task) owns it: it calls KeepAlive while the child runs, then Ack, Nak or Term once.
type Delivery struct {
	msg jetstream.Msg
	// Task is the spawn task, its Attempt filled from the delivery count (1 for the first).
	Task messages.SpawnTask
	// StreamSeq is the task's sequence in the stream (what the dead-letter advisory names).
	StreamSeq uint64
	ackWait   time.Duration
}

// ErrNoTask is returned by Next when no task arrived within one poll.
var ErrNoTask = errors.New("task queue: no task waiting")

// ErrBadTask wraps a delivery that does not decode as a SpawnTask. Next has already acked it
// away: no worker could ever run it. (An ack, not a term: a 2.9 server keeps a termed message
// in a work-queue stream.)
var ErrBadTask = errors.New("task queue: undecodable task dropped")

// Next waits up to one short poll for the next task. It returns ErrNoTask when none came, so
// the caller's loop can check whether it should stop before polling again.
func (q *Queue) Next() (*Delivery, error) {
	if q.cons == nil {
		return nil, errors.New("task queue: opened to publish, not to consume")
	}
	msg, err := q.cons.Next(jetstream.FetchMaxWait(pollWait))
	if err != nil {
		if errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
			return nil, ErrNoTask
		}
		return nil, explain(err)
	}
	md, err := msg.Metadata()
	if err != nil {
		// Not a JetStream delivery: nothing to ack; drop it.
		return nil, fmt.Errorf("task queue: delivery without metadata: %w", err)
	}
	task, err := decodeTask(msg.Data())
	if err != nil {
		_ = msg.Ack()
		return nil, fmt.Errorf("%w: stream sequence %d: %v", ErrBadTask, md.Sequence.Stream, err)
	}
	task.Attempt = int(md.NumDelivered)
	return &Delivery{msg: msg, Task: *task, StreamSeq: md.Sequence.Stream, ackWait: q.cfg.AckWait}, nil
}

func decodeTask(data []byte) (*messages.SpawnTask, error) {
	v, err := messages.Decode(data)
	if err != nil {
		return nil, err
	}
	task, ok := v.(*messages.SpawnTask)
	if !ok {
		return nil, fmt.Errorf("a %T, not a spawn task", v)
	}
	return task, nil
}

// InProgress tells the server the task is still being worked on, restarting its AckWait.
func (d *Delivery) InProgress() error { return d.msg.InProgress() }

// Ack removes the task from the queue for good; call it once the result is published.
// It waits for the server's confirmation, so a returned nil means the task will not come back.
func (d *Delivery) Ack(ctx context.Context) error { return d.msg.DoubleAck(ctx) }

// Nak hands the task back at once, for another worker (or this one) to take.
func (d *Delivery) Nak() error { return d.msg.Nak() }

// HeartbeatEvery is how often KeepAlive renews the task: three times per AckWait, so one lost
// in-progress ack does not cost the task.
func (d *Delivery) HeartbeatEvery() time.Duration { return d.ackWait / 3 }

// LeaseFor is how long a heartbeat sent now vouches for the task: one AckWait.
func (d *Delivery) LeaseFor() time.Duration { return d.ackWait }

// KeepAlive sends an in-progress ack every HeartbeatEvery and calls beat (the worker's lease
// publish; may be nil) each time, until stop is called. stop waits for the goroutine to end.
func (d *Delivery) KeepAlive(beat func()) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(d.HeartbeatEvery())
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = d.msg.InProgress() // a lost one is covered by the next; AckWait spans three
				if beat != nil {
					beat()
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		wg.Wait()
	}
}
