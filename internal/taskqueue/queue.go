// Package taskqueue is the project's JetStream work queue of spawn tasks (docs/WORKERS.md): a
// stream on troupe.<ns>.tasks with work-queue retention and file storage, one durable pull
// consumer shared by every worker (explicit ack, AckWait, MaxDeliver), in-progress acks as
// heartbeats while a task runs, and a dead-letter republisher feeding troupe.<ns>.dead from the
// server's max-deliveries advisory (nats-server 2.9 has no built-in dead-letter queue).
//
// A dispatching Node calls Publish with a messages.SpawnTask; a worker calls Next and, for each
// Delivery, KeepAlive while the child runs and Ack once its result is published.
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

// Defaults for a Config left zero. AckWait bounds how long a task held by a dead worker waits
// before it is redelivered; a live worker renews it every AckWait/3 with an in-progress ack.
const (
	DefaultAckWait    = 30 * time.Second
	DefaultMaxDeliver = 5
	// DefaultConsumer is the durable name every worker of a project pulls from: one consumer,
	// so a work-queue stream hands each task to exactly one of them.
	DefaultConsumer = "workers"
	// duplicateWindow is how long the stream remembers a task id, so a Node that retries a
	// publish after a lost reply never queues the same task twice.
	duplicateWindow = 2 * time.Minute
	maxReplicas     = 3
)

// Config names a project's queue and its delivery policy.
type Config struct {
	Namespace  string        // <ns>: the project id
	AckWait    time.Duration // 0: DefaultAckWait
	MaxDeliver int           // 0: DefaultMaxDeliver
	Consumer   string        // durable consumer name; "": DefaultConsumer
	// Replicas of the stream; 0 picks min(3, servers in the cluster).
	Replicas int
}

func (c Config) withDefaults() Config {
	if c.AckWait <= 0 {
		c.AckWait = DefaultAckWait
	}
	if c.MaxDeliver <= 0 {
		c.MaxDeliver = DefaultMaxDeliver
	}
	if c.Consumer == "" {
		c.Consumer = DefaultConsumer
	}
	return c
}

// StreamName is the JetStream stream holding a project's tasks (stream names take no dots).
func StreamName(ns string) string { return "troupe_" + ns + "_tasks" }

// Queue is one client's handle on a project's task stream. It holds no mutable state after
// Open, so one Queue may be used from several goroutines.
type Queue struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	cfg    Config
	stream jetstream.Stream
	// cons is nil for a publish-only Queue (a Node that only dispatches).
	cons jetstream.Consumer
}

// OpenPublisher ensures the stream exists and returns a Queue that can Publish (a Node).
func OpenPublisher(ctx context.Context, nc *nats.Conn, cfg Config) (*Queue, error) {
	return open(ctx, nc, cfg, false)
}

// OpenConsumer ensures the stream and the shared durable consumer exist (a worker).
func OpenConsumer(ctx context.Context, nc *nats.Conn, cfg Config) (*Queue, error) {
	return open(ctx, nc, cfg, true)
}

func open(ctx context.Context, nc *nats.Conn, cfg Config, consume bool) (*Queue, error) {
	cfg = cfg.withDefaults()
	if !messages.ValidToken(cfg.Namespace) {
		return nil, fmt.Errorf("task queue: project id %q cannot name a subject", cfg.Namespace)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("task queue: %w", err)
	}
	q := &Queue{nc: nc, js: js, cfg: cfg}
	if q.stream, err = q.ensureStream(ctx); err != nil {
		return nil, err
	}
	if consume {
		if q.cons, err = q.ensureConsumer(ctx); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// ensureStream uses the stream if it exists (its replicas cannot change on a 2.9 server) and
// creates it otherwise, falling back to fewer replicas when the cluster has fewer servers.
func (q *Queue) ensureStream(ctx context.Context) (jetstream.Stream, error) {
	name := StreamName(q.cfg.Namespace)
	s, err := q.js.Stream(ctx, name)
	if err == nil {
		return s, nil
	}
	if !errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil, explain(err)
	}
	replicas := q.cfg.Replicas
	if replicas <= 0 {
		replicas = min(maxReplicas, 1+len(q.nc.DiscoveredServers()))
		if q.nc.ConnectedClusterName() == "" {
			replicas = 1
		}
	}
	for ; ; replicas-- {
		s, err = q.js.CreateStream(ctx, jetstream.StreamConfig{
			Name:        name,
			Description: "troupe spawn tasks for workers (docs/WORKERS.md)",
			Subjects:    []string{messages.TasksSubject(q.cfg.Namespace)},
			Retention:   jetstream.WorkQueuePolicy,
			Storage:     jetstream.FileStorage,
			Replicas:    replicas,
			Duplicates:  duplicateWindow,
		})
		if err == nil {
			return s, nil
		}
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			// Another worker or Node created it between our look-up and our create.
			if s, err = q.js.Stream(ctx, name); err == nil {
				return s, nil
			}
		}
		if replicas <= 1 || !replicaError(err) {
			return nil, explain(err)
		}
	}
}

// replicaError reports whether a create failed for want of servers to hold the replicas.
func replicaError(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "replica") || strings.Contains(s, "insufficient resources") ||
		strings.Contains(s, "no suitable peers")
}

func (q *Queue) ensureConsumer(ctx context.Context) (jetstream.Consumer, error) {
	c, err := q.js.CreateOrUpdateConsumer(ctx, StreamName(q.cfg.Namespace), jetstream.ConsumerConfig{
		Durable:       q.cfg.Consumer,
		Description:   "troupe workers",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       q.cfg.AckWait,
		MaxDeliver:    q.cfg.MaxDeliver,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		FilterSubject: messages.TasksSubject(q.cfg.Namespace),
	})
	if err != nil {
		return nil, explain(err)
	}
	return c, nil
}

// Errors a caller tells apart: both are setup mistakes, fixed in the server's configuration
// or the credentials, not by trying again.
var (
	ErrNoJetStream  = errors.New("the NATS server has JetStream off; start it with -js (or jetstream {} in its config)")
	ErrNotPermitted = errors.New("these credentials may not use the project's task queue")
)

// explain turns the JetStream errors a user can act on into one plain sentence.
func explain(err error) error {
	switch {
	case errors.Is(err, jetstream.ErrJetStreamNotEnabled), errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount),
		errors.Is(err, nats.ErrNoResponders): // no JetStream API in this account: it is off
		return fmt.Errorf("task queue: %w", ErrNoJetStream)
	case errors.Is(err, nats.ErrPermissionViolation), strings.Contains(err.Error(), "Permissions Violation"):
		return fmt.Errorf("task queue: %w (%v)", ErrNotPermitted, err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
		return fmt.Errorf("task queue: the NATS server did not answer a JetStream request (is JetStream on, the cluster up, and may these credentials use it?): %w", err)
	}
	return fmt.Errorf("task queue: %w", err)
}

// Config returns the queue's effective configuration (defaults filled in).
func (q *Queue) Config() Config { return q.cfg }

// Publish queues a task. Its id is the stream's de-duplication key: publishing the same id
// again within the duplicate window is a no-op, so a retry never queues it twice. It returns
// once the stream stored the task (replicated, on a cluster).
func (q *Queue) Publish(ctx context.Context, task *messages.SpawnTask) error {
	if !messages.ValidToken(task.ID) {
		return fmt.Errorf("task queue: task id %q cannot name a session", task.ID)
	}
	data, err := messages.Encode(task)
	if err != nil {
		return fmt.Errorf("task queue: encode task %s: %w", task.ID, err)
	}
	// While a cluster elects a new stream leader (a server died), a publish gets no answer, or
	// none in time, for a few seconds: each try is bounded and the publish is tried again until
	// ctx ends. A retry is safe: the task id de-duplicates it.
	subject := messages.TasksSubject(q.cfg.Namespace)
	for {
		try, cancel := context.WithTimeout(ctx, publishTry)
		_, err = q.js.Publish(try, subject, data, jetstream.WithMsgID(task.ID))
		cancel()
		if err == nil {
			return nil
		}
		if !unanswered(err) || ctx.Err() != nil {
			return explain(err)
		}
		select {
		case <-ctx.Done():
			return explain(err)
		case <-time.After(publishRetryWait):
		}
	}
}

// unanswered is a publish nobody acknowledged: no stream leader yet, or none in time.
func unanswered(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse)
}

// One try of a publish, and the pause before the next.
const (
	publishTry       = 2 * time.Second
	publishRetryWait = 250 * time.Millisecond
)

// Replicas is how many servers hold the stream: what the project's other buckets use too.
func (q *Queue) Replicas() int { return max(q.stream.CachedInfo().Config.Replicas, 1) }

// Pending reports how many tasks wait in the stream (queued or delivered and not yet acked).
func (q *Queue) Pending(ctx context.Context) (uint64, error) {
	info, err := q.stream.Info(ctx)
	if err != nil {
		return 0, explain(err)
	}
	return info.State.Msgs, nil
}
