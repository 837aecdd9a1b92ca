package actors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/taskstate"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// A worker (docs/WORKERS.md) is a Node without a chat: it joins a NATS cluster, takes spawn
// tasks from the project's work queue (internal/taskqueue) up to its slots, runs each task's
// child session as a local child would run (same roles, tools, sandbox, budgets and model; the
// provider keys of the worker's own environment), and reports the child's projected result on
// its results subject. Its sessions' inboxes live under troupe.<ns>.wrk.<name>.inbox.

// WorkerOptions configure a worker.
type WorkerOptions struct {
	// Node is what each child is built from, as a Node's sessions are: provider, tools,
	// sandbox, agent limits, environment, log. Node.NATS is the cluster to join (required);
	// Node.Root is the worker's own checkout of the project (roles, instructions).
	Node NodeOptions
	Name string // the worker's name: a subject token, unique among the project's workers
	NS   string // the project id the worker serves; "": Node.Project, else derived from Node.Root
	// Slots bounds the tasks run at once (0: 1).
	Slots int
	// StateDir holds the worker's store (its children's logs).
	StateDir string
	// Queue is the task queue's delivery policy (its Namespace is NS).
	Queue taskqueue.Config
	// Grace is how long a stopping worker lets running tasks finish before it hands them back.
	Grace time.Duration
	// RepoCache holds the checkouts of the tasks' code (internal/gitship).
	RepoCache string
}

// Worker runs spawn tasks from a project's queue. Run owns the consuming loop; each task has
// a goroutine (its slot) that owns its delivery and a task actor that owns its child.
type Worker struct {
	Name  string
	opts  WorkerOptions
	node  *Node
	queue *taskqueue.Queue
	// results keeps each finished task's result until its parent has it (its Node may be down
	// when the result is published).
	results *taskqueue.Results
	code    *taskstate.Host // the tasks' code and state (internal/gitship, internal/taskstate)
	events  *workerEvents   // its sessions' oversized event data (worker_payloads.go)
	dead    func()          // stops the dead-letter republisher
	slots   chan struct{}
	tasks   sync.WaitGroup
	// abandon is closed when a stopping worker's grace is over: running tasks hand back.
	abandon chan struct{}
}

// StartWorker joins the cluster, opens the project's task queue and the worker's store.
func StartWorker(opts WorkerOptions) (*Worker, error) {
	if !messages.ValidToken(opts.Name) {
		return nil, fmt.Errorf("worker name %q cannot name a subject: use letters, digits, - and _", opts.Name)
	}
	if opts.Node.NATS == "" {
		return nil, errors.New("a worker joins a NATS cluster: give its URL")
	}
	if opts.Slots <= 0 {
		opts.Slots = 1
	}
	if opts.Node.Log == nil {
		opts.Node.Log = slog.New(slog.DiscardHandler)
	}
	if opts.NS == "" {
		opts.NS = ProjectNamespace(opts.Node.Root, opts.Node.Project)
	}
	opts.Queue.Namespace = opts.NS
	node, err := startWorkerNode(opts)
	if err != nil {
		return nil, err
	}
	w := &Worker{Name: opts.Name, opts: opts, node: node, slots: make(chan struct{}, opts.Slots), abandon: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if w.queue, err = taskqueue.OpenConsumer(ctx, node.nc, opts.Queue); err != nil {
		node.Close()
		return nil, err
	}
	log := opts.Node.Log
	js, err := jetstream.New(node.nc)
	if err == nil {
		w.code, err = taskstate.NewHost(ctx, js, opts.NS, opts.RepoCache, node.store, w.queue.Replicas(),
			func(err error) { log.Warn("mirror a task's state", "worker", opts.Name, "err", err) })
	}
	if err == nil {
		w.results, err = taskqueue.OpenResults(ctx, js, opts.NS, w.queue.Replicas())
	}
	if err != nil {
		node.Close()
		return nil, fmt.Errorf("worker code and state: %w", err)
	}
	// Set before Run starts any session: from then on only read.
	w.events = newWorkerEvents(w.code.Objects)
	node.bridge.objects = w.events
	// No dead-letter republisher here: the project's Nodes run it (actors/dispatch_queue.go),
	// with the right to delete an exhausted task that a worker's credentials do not carry.
	return w, nil
}

// startWorkerNode builds the runtime a worker's children share: its own store, a connection to
// the cluster, an actor system, a Bridge on the worker's inbox subjects and the MCP servers. It
// writes no node.json and answers no node subject: clients attach to the project's Node.
func startWorkerNode(opts WorkerOptions) (*Node, error) {
	nopts := opts.Node
	n := &Node{ID: "w-" + opts.Name, NS: opts.NS, Root: nopts.Root, opts: nopts, schemas: &tools.SchemaCache{}}
	n.newMemos()
	n.warmMemos()
	if err := os.MkdirAll(opts.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("worker state: %w", err)
	}
	st, err := store.Open(filepath.Join(opts.StateDir, "db"), nopts.Log)
	if err != nil {
		n.Close()
		return nil, err
	}
	n.store = st
	n.lessons = newLessonKeeper(st, nopts.Log)
	if n.bus, err = JoinBus(nopts.NATS, nopts.BusCredentials, nopts.Log); err != nil {
		n.Close()
		return nil, err
	}
	if n.nc, err = n.bus.Connect("troupe-worker-" + opts.Name); err != nil {
		n.Close()
		return nil, err
	}
	n.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(warnOnly{nopts.Log.Handler()})
	}))
	n.bridge = NewBridge(n.nc, n.system.Root, n.NS, nopts.Log, n.store)
	n.bridge.onWorker(opts.Name)
	if n.mcp, err = startMCP(n.system, nopts); err != nil {
		n.Close()
		return nil, err
	}
	return n, nil
}

// Run takes tasks while slots are free until ctx ends, then stops taking them: running tasks
// get the grace to finish, the rest are handed back (nak) so another worker takes them at
// once. It returns when every task is over.
func (w *Worker) Run(ctx context.Context) {
	log := w.opts.Node.Log
	for {
		select {
		case w.slots <- struct{}{}:
		case <-ctx.Done():
			w.drain()
			return
		}
		if ctx.Err() != nil {
			<-w.slots
			w.drain()
			return
		}
		d, err := w.queue.Next()
		switch {
		case err == nil && ctx.Err() != nil:
			_ = d.Nak() // taken as the worker stopped: hand it straight back
			<-w.slots
		case err == nil:
			w.tasks.Add(1)
			go w.runTask(d)
		case errors.Is(err, taskqueue.ErrNoTask):
			<-w.slots
		default:
			<-w.slots
			log.Warn("take a task", "worker", w.Name, "err", err)
			select { // the cluster may be electing a leader: try again shortly
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
		}
	}
}

// drain waits for the running tasks, handing them back once the grace is over.
func (w *Worker) drain() {
	done := make(chan struct{})
	go func() { w.tasks.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(w.opts.Grace):
	}
	close(w.abandon)
	<-done
}

// Running is how many tasks run now.
func (w *Worker) Running() int { return len(w.slots) }

// Close stops mirroring and the worker's runtime. Call it after Run returned.
func (w *Worker) Close() error {
	w.code.Close()
	return w.node.Close()
}
