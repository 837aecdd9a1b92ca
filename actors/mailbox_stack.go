package actors

import (
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
)

// protoactor runs a mailbox on a new goroutine each time messages arrive at an idle actor
// (actor.NewDefaultDispatcher: `go fn()`), and a new goroutine starts with a small stack. A
// session's Receive goes deep (the turn step, the store's transaction, JSON encoding), so each
// run grew that stack two or three times, every growth copying the frames already on it: 17%
// of the session's CPU per turn (BenchmarkTurnOverhead's profile, docs/ARCHITECTURE.md "How
// a turn flows"). A Node's runners keep a few goroutines between runs instead, their stacks
// grown once at their start, while only two frames are on it; without runners (a session
// outside a Node), each run gets a new goroutine grown the same way.

// grownStackBytes is the stack a session's mailbox run needs without growing again: its turn
// steps fit in 16 KiB, the stack this frame makes the runtime allocate.
const grownStackBytes = 12 << 10

// growStack needs a frame of grownStackBytes, so the runtime grows the stack to fit it once.
//
//go:noinline
func growStack() {
	var pad [grownStackBytes]byte
	touchStack(pad[:])
}

//go:noinline
func touchStack(b []byte) { b[len(b)-1] = 1 }

// maxIdleRunners is how many runners wait for work at most; a runner that finds that many
// waiting ends. Two cores keep two or three busy in a turn (session, executor, a tool call).
const maxIdleRunners = 4

// runners run actors' mailbox runs and tool calls on goroutines kept between runs: a run goes
// to a runner waiting for work, or to a new one when none waits (never queued behind another
// run). The Node owns them: stop ends the waiting ones, and each busy one ends after its run.
type runners struct {
	work     chan func() // unbuffered: a send succeeds only when a runner waits
	done     chan struct{}
	idle     atomic.Int32
	stopOnce sync.Once
}

func newRunners() *runners {
	return &runners{work: make(chan func()), done: make(chan struct{})}
}

// Go runs fn on a runner; with no runners (nil), on a new goroutine with a grown stack.
func (r *runners) Go(fn func()) {
	if r == nil {
		go func() {
			growStack()
			fn()
		}()
		return
	}
	select {
	case r.work <- fn:
	default:
		go r.run(fn)
	}
}

func (r *runners) run(fn func()) {
	growStack()
	for {
		fn()
		if r.idle.Add(1) > maxIdleRunners {
			r.idle.Add(-1)
			return
		}
		select {
		case fn = <-r.work:
			r.idle.Add(-1)
		case <-r.done:
			r.idle.Add(-1)
			return
		}
	}
}

// stop ends the runners waiting for work; later runs each get a goroutine of their own.
func (r *runners) stop() {
	if r != nil {
		r.stopOnce.Do(func() { close(r.done) })
	}
}

// runnersDispatcher is r as an actor's dispatcher, with protoactor's default throughput.
type runnersDispatcher struct{ r *runners }

func (d runnersDispatcher) Schedule(fn func()) { d.r.Go(fn) }
func (d runnersDispatcher) Throughput() int    { return 300 }

// grownProps are the props of an actor whose mailbox runs on r (a session, its executor).
func grownProps(p actor.Producer, r *runners) *actor.Props {
	return actor.PropsFromProducer(p, actor.WithDispatcher(runnersDispatcher{r}))
}

// sessionProps are the props of a session actor.
func sessionProps(p actor.Producer, r *runners) *actor.Props { return grownProps(p, r) }
