package actors

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/messages"
)

// jetQueue is the Node's TaskQueue on JetStream: tasks go through internal/taskqueue, the code
// a task works on through internal/gitship (base commit, patch, bundle), and a writing remote
// child's branch comes back the same way.
type jetQueue struct {
	q         *taskqueue.Queue
	js        jetstream.JetStream
	objs      *gitship.Objects
	ns, root  string
	remoteURL string
	stopDead  func()
	results   *taskqueue.Results // finished tasks' outcomes until their parent has them
	// A burst of tasks shares one capture of the checkout and one look for a waiting worker
	// (dispatch_capture.go), each fresh for every task that waits on it.
	capture freshFlight[*gitship.Snapshot]
	waiting freshFlight[bool]
}

// JetStreamQueue opens the project's task queue and code bucket for a Node at root; url is a
// remote the workers can fetch from ("": bundles through the object store).
func JetStreamQueue(root, url string) TaskQueueOpener {
	return func(ctx context.Context, nc *nats.Conn, ns string) (TaskQueue, error) {
		js, err := jetstream.New(nc)
		if err != nil {
			return nil, err
		}
		q, err := taskqueue.OpenPublisher(ctx, nc, taskqueue.Config{Namespace: ns})
		if err != nil {
			return nil, err
		}
		objs, err := gitship.OpenObjects(ctx, js, ns, 1)
		if err != nil {
			return nil, err
		}
		results, err := taskqueue.OpenResults(ctx, js, ns, q.Replicas())
		if err != nil {
			return nil, err
		}
		// The Node also turns exhausted tasks into dead letters (one republisher per advisory,
		// however many run): a dispatched child fails even if no worker runs one.
		stopDead, err := q.DeadLetters(nil)
		if err != nil {
			return nil, err
		}
		return &jetQueue{q: q, js: js, objs: objs, ns: ns, root: root, remoteURL: url, stopDead: stopDead, results: results}, nil
	}
}

// Publish ships the code the task works on, then queues it.
func (j *jetQueue) Publish(ctx context.Context, task *messages.SpawnTask) error {
	snap, err := j.capture.do(ctx, func() (*gitship.Snapshot, error) {
		c, cancel := context.WithTimeout(context.Background(), publishTimeout)
		defer cancel()
		return gitship.Capture(c, j.root, j.objs, gitship.PrepareOptions{URL: j.remoteURL})
	})
	if err != nil {
		return err
	}
	repo, _, err := snap.ForTask(ctx, task.ID, j.objs)
	if err != nil {
		return err
	}
	task.Repo = *repo
	return j.q.Publish(ctx, task)
}

// Close stops the dead-letter republisher.
func (j *jetQueue) Close() { j.stopDead() }

// Waiting reports whether a worker is attached to the shared consumer: one has a pull waiting,
// or holds a task (busy, it takes the next when a slot frees).
func (j *jetQueue) Waiting(ctx context.Context) (bool, error) {
	return j.waiting.do(ctx, func() (bool, error) {
		c, cancel := context.WithTimeout(context.Background(), queueTimeout)
		defer cancel()
		return j.askWaiting(c)
	})
}

func (j *jetQueue) askWaiting(ctx context.Context) (bool, error) {
	c, err := j.js.Consumer(ctx, taskqueue.StreamName(j.ns), taskqueue.DefaultConsumer)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		return false, nil // no worker ever joined this project
	}
	if err != nil {
		return false, err
	}
	info, err := c.Info(ctx)
	if err != nil {
		return false, err
	}
	return workerOnConsumer(info), nil
}

// workerOnConsumer reports whether the consumer's state shows a worker: a pull waiting, or a
// task delivered and not yet acked. Pulls alone would miss busy workers: a burst of tasks takes
// every waiting pull, and the burst's later tasks then saw no worker and ran locally.
func workerOnConsumer(info *jetstream.ConsumerInfo) bool {
	return info.NumWaiting > 0 || info.NumAckPending > 0
}

// Import brings a writing remote child's branch into the parent's checkout as troupe/<task>.
func (j *jetQueue) Import(ctx context.Context, base string, r *messages.AgentResult) error {
	if r.Branch == "" {
		return nil
	}
	name := r.Handle[strings.LastIndexByte(r.Handle, '/')+1:]
	if err := gitship.Import(ctx, j.root, name, base, r, j.objs, j.remoteURL); err != nil {
		return fmt.Errorf("bring back the branch of %s: %w", r.Handle, err)
	}
	return nil
}
