package taskqueue

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// deadGroup is the queue group of every republisher of a project, so each advisory is
// handled by exactly one of them however many workers and Nodes run one.
const deadGroup = "troupe-dead-letters"

// maxDeliveriesAdvisory is the part of the server's advisory the republisher reads.
type maxDeliveriesAdvisory struct {
	StreamSeq  uint64 `json:"stream_seq"`
	Deliveries int    `json:"deliveries"`
}

// AdvisorySubject is where the server announces a task of this queue that exhausted MaxDeliver.
func (q *Queue) AdvisorySubject() string {
	return "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + StreamName(q.cfg.Namespace) + "." + q.cfg.Consumer
}

// DeadLetters turns each task that exhausted its deliveries into a messages.DeadTask on
// troupe.<ns>.dead (who dispatched it, how often it was tried) and then deletes it from the
// stream, so a poison task stops holding the queue. The server announces an exhausted task
// when a consumer next pulls, which live workers always do. It runs until the returned stop is
// called; report, if not nil, hears each failure (the task then stays in the stream).
func (q *Queue) DeadLetters(report func(error)) (stop func(), err error) {
	if report == nil {
		report = func(error) {}
	}
	// The dead letter is also kept with the project's results, so a parent whose Node is down
	// when it is made still learns why its child failed (results.go).
	ctx, cancel := context.WithTimeout(context.Background(), q.cfg.AckWait)
	results, err := OpenResults(ctx, q.js, q.cfg.Namespace, q.Replicas())
	cancel()
	if err != nil {
		report(err) // dead letters still go out on troupe.<ns>.dead
	}
	sub, err := q.nc.QueueSubscribe(q.AdvisorySubject(), deadGroup, func(m *nats.Msg) {
		// The callback runs on the subscription's own goroutine, never an actor's.
		if err := q.republish(m.Data, results); err != nil {
			report(err)
		}
	})
	if err != nil {
		return nil, explain(err)
	}
	if err := q.nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, explain(err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

func (q *Queue) republish(advisory []byte, results *Results) error {
	var a maxDeliveriesAdvisory
	if err := json.Unmarshal(advisory, &a); err != nil {
		return fmt.Errorf("dead letter: unreadable advisory: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), q.cfg.AckWait)
	defer cancel()
	raw, err := q.stream.GetMsg(ctx, a.StreamSeq)
	if err != nil {
		return fmt.Errorf("dead letter: task at sequence %d: %w", a.StreamSeq, err)
	}
	dead := messages.DeadTask{
		Task:       raw.Header.Get(nats.MsgIdHdr),
		Deliveries: a.Deliveries,
		Reason:     fmt.Sprintf("no worker finished it in %d deliveries", a.Deliveries),
	}
	if task, err := decodeTask(raw.Data); err == nil {
		dead.Task, dead.Parent, dead.ParentNode = task.ID, task.Parent, task.ParentNode
	}
	data, err := messages.Encode(&dead)
	if err != nil {
		return fmt.Errorf("dead letter: encode task %s: %w", dead.Task, err)
	}
	if results != nil && dead.Task != "" {
		if err := results.Put(ctx, dead.Task, &dead); err != nil {
			return fmt.Errorf("dead letter: keep task %s: %w", dead.Task, err)
		}
	}
	if err := q.nc.Publish(messages.DeadTasksSubject(q.cfg.Namespace), data); err != nil {
		return fmt.Errorf("dead letter: publish task %s: %w", dead.Task, err)
	}
	if err := q.nc.FlushWithContext(ctx); err != nil {
		return fmt.Errorf("dead letter: publish task %s: %w", dead.Task, err)
	}
	if err := q.stream.DeleteMsg(ctx, a.StreamSeq); err != nil {
		return fmt.Errorf("dead letter: remove task %s from the queue: %w", dead.Task, err)
	}
	return nil
}
