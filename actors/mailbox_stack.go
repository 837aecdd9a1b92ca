package actors

import "github.com/asynkron/protoactor-go/actor"

// protoactor runs a mailbox on a new goroutine each time messages arrive at an idle actor
// (actor.NewDefaultDispatcher: `go fn()`), and a new goroutine starts with a small stack. A
// session's Receive goes deep (the turn step, the store's transaction, JSON encoding), so each
// run grew that stack two or three times, every growth copying the frames already on it: 17%
// of the session's CPU per turn (BenchmarkTurnOverhead's profile, docs/ARCHITECTURE.md "How
// a turn flows"). grownStackDispatcher grows the new goroutine's stack once, at its start,
// while only two frames are on it.

// grownStackBytes is the stack a session's mailbox run needs without growing again: its deepest
// turn step measured about 20 KiB.
const grownStackBytes = 24 << 10

// grownStackDispatcher schedules a mailbox run on a new goroutine whose stack is grown first.
type grownStackDispatcher struct{ throughput int }

func (d grownStackDispatcher) Schedule(fn func()) {
	go func() {
		growStack()
		fn()
	}()
}

func (d grownStackDispatcher) Throughput() int { return d.throughput }

// growStack needs a frame of grownStackBytes, so the runtime grows the stack to fit it once.
//
//go:noinline
func growStack() {
	var pad [grownStackBytes]byte
	touchStack(pad[:])
}

//go:noinline
func touchStack(b []byte) { b[len(b)-1] = 1 }

// sessionProps are the props of a session actor.
func sessionProps(p actor.Producer) *actor.Props { return grownProps(p) }

// grownProps are the props of an actor whose mailbox runs on a grown stack (a session, its
// executor), with protoactor's default throughput.
func grownProps(p actor.Producer) *actor.Props {
	return actor.PropsFromProducer(p, actor.WithDispatcher(grownStackDispatcher{throughput: 300}))
}
