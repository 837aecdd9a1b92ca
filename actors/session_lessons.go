package actors

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/lessons"
	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/messages"
)

// LessonBook is what a top-level session gets of the project's lessons: the lessons as they
// were read when its setup was built, and the keeper that stores what it learns.
type LessonBook struct {
	Known    []messages.Lesson
	Epoch    int
	MaxBytes int // the state block's bound; 0: lessons.DefaultMaxBytes
	keeper   *lessonKeeper
}

// sessionLessons is the session's side of the learning layer: the decisions are the Tracker's
// (actors/lessons); it hands what is learnt to the keeper and returns the events to emit, and
// the session emits them and shows the block in the request. A nil one (no book: subagents,
// tests) learns nothing.
type sessionLessons struct {
	tracker *lessons.Tracker
	keeper  *lessonKeeper
	root    *actor.RootContext
	self    *actor.PID
	scored  bool
	pending int  // lessons handed to the keeper, not yet stored
	holding bool // the finish waits for them
}

// finishHeld completes a finish held for the lessons being stored.
type finishHeld struct{ out *messages.SessionFinishedData }

// lessonHold bounds how long a finish waits for its lessons to be stored.
const lessonHold = 2 * time.Second

// newSessionLessons makes a session's tracker from its book (nil without one); the keeper
// answers self through root.
func newSessionLessons(b *LessonBook, model, id string, root *actor.RootContext, self *actor.PID) *sessionLessons {
	if b == nil || b.keeper == nil {
		return nil
	}
	t := lessons.NewTracker(model, id, b.Known, b.Epoch)
	if b.MaxBytes > 0 {
		t.Book.MaxBytes = b.MaxBytes
	}
	return &sessionLessons{tracker: t, keeper: b.keeper, root: root, self: self}
}

// hold holds a finishing session until the lessons it handed the keeper are stored, so their
// lesson.stored events come before session.finished: the barrier to wait on off the actor, nil
// when nothing is to wait for.
func (l *sessionLessons) hold() <-chan struct{} {
	if l == nil || l.pending == 0 || l.holding {
		return nil
	}
	l.holding = true
	return l.keeper.barrier()
}

// observe feeds an emitted event of turn to the tracker: a lesson learnt is handed to the
// keeper; lessons brought in by a failure are the event returned.
func (l *sessionLessons) observe(p messages.Payload, turn int) []messages.Payload {
	if l == nil {
		return nil
	}
	learnt, given := l.tracker.Observe(p.EventType(), p.Data())
	for _, ls := range learnt {
		if l.keeper.learn(l.root, l.self, turn, ls) {
			l.pending++
		}
	}
	if given == nil {
		return nil
	}
	return []messages.Payload{messages.LessonsGivenEvent.Of(given)}
}

// task looks up the lessons for a new task, given to the turn about to start (the zero
// Payload when there are none).
func (l *sessionLessons) task(text string, next int) messages.Payload {
	if l == nil {
		return messages.Payload{}
	}
	given := l.tracker.Task(text)
	if given == nil {
		return messages.Payload{}
	}
	given.Turn = next
	return messages.LessonsGivenEvent.Of(given)
}

// blocks is the state block of lessons, when there are any to give.
func (l *sessionLessons) blocks() []projection.StateBlock {
	if l == nil {
		return nil
	}
	if body := l.tracker.Book.Block(); body != "" {
		return []projection.StateBlock{{Title: lessons.BlockTitle, Body: body}}
	}
	return nil
}

// stored is the lesson.stored event once the keeper has written the lesson; the zero Payload
// when the session finished without waiting for it.
func (l *sessionLessons) stored(m *lessonStored, finished bool) messages.Payload {
	if l != nil {
		l.pending--
	}
	if !finished || l != nil && l.holding {
		return messages.LessonStoredEvent.Of(&m.data)
	}
	return messages.Payload{}
}

// score hands the session's outcomes to the keeper, once, when it finishes.
func (l *sessionLessons) score() {
	if l == nil || l.scored || l.tracker.Book.Len() == 0 {
		return
	}
	l.scored = true
	l.keeper.score(l.tracker.Book.Outcomes())
}
