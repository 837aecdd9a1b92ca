package actors

import (
	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// The session's state, grouped by what owns it. Each group is touched only by the session's
// actor; the components with decisions of their own (turnState, toolBatch, contextBudget, doneGate,
// children) live in their own files with their own tests.

// keep holds a subscription until the session stops.
func (l *sessionLinks) keep(sub *nats.Subscription) {
	if sub != nil {
		l.subs = append(l.subs, sub)
	}
}

// unsubscribe lets go of the session's subscriptions.
func (l *sessionLinks) unsubscribe() {
	for _, sub := range l.subs {
		_ = sub.Unsubscribe()
	}
	l.subs = nil
}

// sessionLinks are the session's ties to the other actors and to the bus.
type sessionLinks struct {
	addr        string     // the session's inbox address
	toolexec    *actor.PID // only the session talks to its executor, by message (issue 10 item 4)
	compactor   *actor.PID // spawned on first use
	subs        []*nats.Subscription
	emitter     *messages.Emitter
	emitterHome **messages.Emitter // shared by every incarnation of this session
	lostEvent   error              // the first event that could not be published (large.go)
}
