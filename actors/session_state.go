package actors

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// The session's state, grouped by what owns it. Each group is touched only by the session's
// actor; the components with decisions of their own (toolBatch, contextBudget, children) live
// in their own files with their own tests.

// turnState is the turn in flight: what runs off the actor for it and how it is going.
type turnState struct {
	// cancelWork stops the turn's model call, which runs off the actor.
	cancelWork context.CancelFunc
	// recheck is armed while the executor re-checks the files before the model call (its
	// timeout); checkFor is the final answer waiting on the check command.
	recheck    *time.Timer
	checkFor   string
	batch      *toolBatch // the turn's tool calls, while they run
	cancelling string     // non-empty once a Cancel arrived mid-turn: its reason
	// How often the model replied with nothing, or was cut off, in a row (nudges, then a failure).
	emptyReplies, lengthContinues int
	finalPending                  *string // a headless session's final answer, held while its children finish
	// stopHookRefusals counts final answers Stop hooks refused in a row; endHooks says the
	// SessionEnd hooks were asked (session_hooks.go).
	stopHookRefusals int
	endHooks         bool
}

// stopWork stops the turn's model call, if one runs.
func (t *turnState) stopWork() {
	if t.cancelWork != nil {
		t.cancelWork()
	}
}

// stopRecheck forgets the recheck in flight for turn (the current one is now); false if none
// was (a late or repeated answer).
func (t *turnState) stopRecheck(turn, now int) bool {
	if t.recheck == nil || turn != now {
		return false
	}
	t.recheck.Stop()
	t.recheck = nil
	return true
}

// newInput starts the counts of replies in a row over: the user spoke.
func (t *turnState) newInput() { t.emptyReplies, t.lengthContinues, t.stopHookRefusals = 0, 0, 0 }

// emptyReply counts an empty reply; past maxEmptyReplies in a row it returns the failure.
func (t *turnState) emptyReply() string {
	t.emptyReplies++
	if t.emptyReplies > maxEmptyReplies {
		return fmt.Sprintf("the model replied with nothing %d times in a row", t.emptyReplies)
	}
	return ""
}

// cutOff counts a reply cut off by the output limit; past maxLengthContinues it returns the
// failure.
func (t *turnState) cutOff() string {
	t.lengthContinues++
	if t.lengthContinues > maxLengthContinues {
		return "the model's reply was cut off by its output limit too many times"
	}
	return ""
}

// cancel records that a Cancel arrived mid-turn, with its reason.
func (t *turnState) cancel(reason string) {
	if reason == "" {
		reason = "cancelled by the user"
	}
	t.cancelling = reason
}

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
