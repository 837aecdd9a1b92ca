package taskqueue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/messages"
)

// A project's finished tasks wait on the bus until their parent's Node has them
// (docs/WORKERS.md "Durable results"): a key-value bucket keyed by task id holds each task's
// outcome — the child's messages.AgentResult, put by the worker before it publishes the result
// on its results subject and acks the task, or the messages.DeadTask the dead-letter
// republisher makes. The dispatching Node removes a key once the parent session recorded the
// outcome in its own store; a parent that never comes back leaves it to expire after
// ResultsMaxAge. So a result a worker finishes while the parent's Node is down is collected
// when the parent resumes, instead of being lost with the core publish nobody heard.

// ResultsMaxAge is how long an outcome nobody collected stays in the bucket.
const ResultsMaxAge = 7 * 24 * time.Hour

// ResultsBucket is the key-value bucket of a project's finished tasks (its stream is
// "KV_" + the bucket).
func ResultsBucket(ns string) string { return "troupe_results_" + bucketSafe(ns) }

// bucketSafe keeps the characters a bucket name allows (letters, digits, - and _).
func bucketSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// Results is one client's handle on a project's bucket of finished tasks. It holds no mutable
// state after OpenResults, so it may be used from several goroutines.
type Results struct {
	kv jetstream.KeyValue
}

// OpenResults opens the project's results bucket, creating it when missing with replicas
// (what the task stream has). Nothing newer than nats-server 2.9 is asked for.
func OpenResults(ctx context.Context, js jetstream.JetStream, ns string, replicas int) (*Results, error) {
	name := ResultsBucket(ns)
	kv, err := js.KeyValue(ctx, name)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket: name, Description: "troupe: finished remote tasks' results until their parent has them (docs/WORKERS.md)",
			History: 1, TTL: ResultsMaxAge, Storage: jetstream.FileStorage, Replicas: max(replicas, 1),
		})
		if errors.Is(err, jetstream.ErrBucketExists) || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			kv, err = js.KeyValue(ctx, name) // another client created it meanwhile
		}
	}
	if err != nil {
		return nil, explain(fmt.Errorf("open the results bucket %s: %w", name, err))
	}
	return &Results{kv: kv}, nil
}

// Put keeps a task's outcome (a *messages.AgentResult or a *messages.DeadTask) under its id. It
// returns once the bucket stored it (replicated, on a cluster); while a cluster elects a leader
// it is tried again until ctx ends (a put of the same outcome twice is harmless).
func (r *Results) Put(ctx context.Context, task string, outcome any) error {
	if !messages.ValidToken(task) {
		return fmt.Errorf("task queue: task id %q cannot name a result", task)
	}
	switch outcome.(type) {
	case *messages.AgentResult, *messages.DeadTask:
	default:
		return fmt.Errorf("task queue: a %T is not a task's outcome", outcome)
	}
	data, err := messages.Encode(outcome)
	if err != nil {
		return fmt.Errorf("task queue: encode the outcome of %s: %w", task, err)
	}
	for {
		try, cancel := context.WithTimeout(ctx, publishTry)
		_, err = r.kv.Put(try, task, data)
		cancel()
		if err == nil {
			return nil
		}
		if !unanswered(err) || ctx.Err() != nil {
			return explain(fmt.Errorf("keep the outcome of %s: %w", task, err))
		}
		select {
		case <-ctx.Done():
			return explain(fmt.Errorf("keep the outcome of %s: %w", task, err))
		case <-time.After(publishRetryWait):
		}
	}
}

// Get returns the outcome kept for task: a *messages.AgentResult, a *messages.DeadTask, or nil
// when there is none (never put, collected, or expired).
func (r *Results) Get(ctx context.Context, task string) (any, error) {
	if !messages.ValidToken(task) {
		return nil, nil
	}
	e, err := r.kv.Get(ctx, task)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return nil, nil
	}
	if err != nil {
		return nil, explain(fmt.Errorf("read the outcome of %s: %w", task, err))
	}
	v, err := messages.Decode(e.Value())
	if err != nil {
		return nil, fmt.Errorf("task queue: the outcome of %s is unreadable: %w", task, err)
	}
	switch v.(type) {
	case *messages.AgentResult, *messages.DeadTask:
		return v, nil
	}
	return nil, fmt.Errorf("task queue: the outcome of %s is a %T", task, v)
}

// Remove forgets a task's outcome once its parent recorded it. The bucket keeps only a small
// delete marker, which expires with ResultsMaxAge.
func (r *Results) Remove(ctx context.Context, task string) error {
	if !messages.ValidToken(task) {
		return nil
	}
	if err := r.kv.Purge(ctx, task); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return explain(fmt.Errorf("forget the outcome of %s: %w", task, err))
	}
	return nil
}

// Waiting is where a task stands in the task stream, for a parent that lost track of it.
type Waiting int

const (
	// NotQueued: the stream does not hold it (finished, given up, or never queued).
	NotQueued Waiting = iota
	// Queued: no worker has taken it yet.
	Queued
	// Delivered: a worker took it and has not acked it: it runs (its lease is renewed), waits
	// to be redelivered, or exhausted its deliveries.
	Delivered
)

// Find reports where each of tasks stands in the stream. It reads the stream's messages once
// (the stream holds only tasks not yet acked), so it costs one request per waiting task.
func (q *Queue) Find(ctx context.Context, tasks []string) (map[string]Waiting, error) {
	want := make(map[string]bool, len(tasks))
	for _, t := range tasks {
		want[t] = true
	}
	// Sequences up to the consumer's last delivery went to a worker; later ones wait.
	var delivered uint64
	c, err := q.js.Consumer(ctx, StreamName(q.cfg.Namespace), q.cfg.Consumer)
	switch {
	case err == nil:
		info, err := c.Info(ctx)
		if err != nil {
			return nil, explain(err)
		}
		delivered = info.Delivered.Stream
	case !errors.Is(err, jetstream.ErrConsumerNotFound):
		return nil, explain(err)
	}
	out := make(map[string]Waiting, len(tasks))
	subject := messages.TasksSubject(q.cfg.Namespace)
	for seq := uint64(1); len(out) < len(want); {
		m, err := q.stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subject))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			break // no message at or after seq: the end of the stream
		}
		if err != nil {
			return nil, explain(err)
		}
		if id := m.Header.Get(nats.MsgIdHdr); want[id] {
			out[id] = Queued
			if m.Sequence <= delivered {
				out[id] = Delivered
			}
		}
		seq = m.Sequence + 1
	}
	return out, nil
}
