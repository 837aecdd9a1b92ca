package actors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/taskstate"
	"github.com/troupe-dev/troupe/messages"
)

// jetQueue is the Node's TaskQueue on JetStream: tasks go through internal/taskqueue, the code
// a task works on through internal/gitship (base commit, patch, bundle), and a writing remote
// child's branch comes back the same way.
type jetQueue struct {
	q        *taskqueue.Queue
	js       jetstream.JetStream
	objs     *gitship.Objects
	ns       string
	opts     CodeOptions
	limit    int // the largest message sent inline on this connection
	stopDead func()
	results  *taskqueue.Results // finished tasks' outcomes until their parent has them
	// A burst of tasks shares one capture of the checkout and one look for a waiting worker
	// (dispatch_capture.go), each fresh for every task that waits on it.
	capture freshFlight[*gitship.Snapshot]
	waiting freshFlight[bool]
	// toldBase are the bases whose fallback to bundles the user was told of (Publish runs on
	// the dispatcher's off-actor goroutines, so behind mu).
	mu       sync.Mutex
	toldBase map[string]bool
}

// CodeOptions say where a Node's code is and how it travels to workers.
type CodeOptions struct {
	Root string // the Node's checkout
	// Remote is the shared git remote ([workers] remote): "" is origin's URL when the
	// repository has one, config.RemoteNone (or no origin) sends bundles through the object store.
	Remote string
	Log    *slog.Logger
}

// sharedRemote is the remote the workers share with this Node ("": none).
func (o CodeOptions) sharedRemote(ctx context.Context) string {
	switch o.Remote {
	case config.RemoteNone:
		return ""
	case "":
		return gitship.OriginURL(ctx, o.Root)
	}
	return o.Remote
}

// JetStreamQueue opens the project's task queue and code bucket for a Node.
func JetStreamQueue(ctx context.Context, nc *nats.Conn, ns string, opts CodeOptions) (TaskQueue, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	opts.Remote = opts.sharedRemote(ctx)
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
	return &jetQueue{q: q, js: js, objs: objs, ns: ns, opts: opts, limit: taskstate.InlineLimit(nc.MaxPayload()),
		stopDead: stopDead, results: results}, nil
}

// Publish ships the code the task works on and, when the task would be too large for the bus,
// its inherited context through the object store; then queues it. When the shared remote could
// not be used, the note says why, once per base commit.
func (j *jetQueue) Publish(ctx context.Context, task *messages.SpawnTask) (string, error) {
	snap, err := j.capture.do(ctx, func() (*gitship.Snapshot, error) {
		c, cancel := context.WithTimeout(context.Background(), publishTimeout)
		defer cancel()
		return gitship.Capture(c, j.opts.Root, j.objs, gitship.PrepareOptions{URL: j.opts.Remote})
	})
	if err != nil {
		return "", err
	}
	repo, _, err := snap.ForTask(ctx, task.ID, j.objs)
	if err != nil {
		return "", err
	}
	task.Repo = *repo
	if _, err := taskstate.ShipContext(ctx, j.objs, task, j.limit); err != nil {
		return "", err
	}
	if err := j.q.Publish(ctx, task); err != nil {
		return "", err
	}
	return j.fellBack(ctx, repo), nil
}

// fellBack says, the first time for each base, why a task's code went as bundles although a
// shared remote is configured.
func (j *jetQueue) fellBack(ctx context.Context, repo *messages.TaskRepo) string {
	if j.opts.Remote == "" || repo.URL != "" {
		return ""
	}
	j.mu.Lock()
	told := j.toldBase[repo.Base]
	if j.toldBase == nil {
		j.toldBase = map[string]bool{}
	}
	j.toldBase[repo.Base] = true
	j.mu.Unlock()
	if told {
		return ""
	}
	return gitship.Fallback(ctx, j.opts.Root, j.opts.Remote, repo)
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

// Collect puts back a remote child's whole result (it came as a preview when too large for
// the bus) and brings a writing child's branch into the parent's checkout as troupe/<task>;
// then, with everything in hand, the task's objects are deleted (gitship.Objects.Forget). When
// something could not be brought in, the objects stay: the child's work is not thrown away.
func (j *jetQueue) Collect(ctx context.Context, base string, r *messages.AgentResult) (*messages.AgentResult, error) {
	whole, err := taskstate.WholeResult(ctx, j.objs, r)
	if err != nil {
		return r, err
	}
	if whole == r {
		c := *r
		whole = &c
	}
	whole.Worker = r.Worker // the worker the result came from
	if whole.Branch != "" {
		name := whole.Handle[strings.LastIndexByte(whole.Handle, '/')+1:]
		if err := gitship.Import(ctx, j.opts.Root, name, base, whole, j.objs, j.opts.Remote); err != nil {
			return whole, fmt.Errorf("bring back the branch of %s: %w", whole.Handle, err)
		}
		if whole.Bundle == nil && j.opts.Remote != "" { // it came through the shared remote
			if err := gitship.Unpush(ctx, j.opts.Root, j.opts.Remote, whole.Branch); err != nil {
				j.opts.Log.Warn("delete a task's pushed branch", "task", r.Session, "err", err)
			}
		}
		whole.Branch = gitship.Branch(name) // where it is now, for troupe worktree merge <name>
	}
	if err := j.objs.Forget(ctx, r.Session); err != nil {
		j.opts.Log.Warn("delete a finished task's objects", "task", r.Session, "err", err) // not the child's failure
	}
	return whole, nil
}
