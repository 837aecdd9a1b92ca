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
// (actors/lessons); here they are acted on — stored, emitted, shown in the request.
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

// holdForLessons holds a finishing session until the lessons it handed the keeper are stored,
// so their lesson.stored events come before session.finished. It reports whether it holds;
// finishHeld follows, queued behind the keeper's answers.
func (s *session) holdForLessons(ctx actor.Context, out *messages.SessionFinishedData) bool {
	if s.learn == nil || s.learn.pending == 0 || s.learn.holding {
		return false
	}
	s.learn.holding = true
	barrier := s.learn.keeper.barrier()
	offActor(ctx, lessonHold, func() struct{} { <-barrier; return struct{}{} }, func(struct{}, error) {
		ctx.Send(ctx.Self(), &finishHeld{out: out}) // a user message: after the keeper's answers
	})
	return true
}

// startLessons makes the session's tracker (none without a book: subagents, tests).
func (s *session) startLessons(ctx actor.Context) {
	b := s.deps.Lessons
	if b == nil || b.keeper == nil {
		return
	}
	t := lessons.NewTracker(s.deps.Model, s.cfg.ID, b.Known, b.Epoch)
	if b.MaxBytes > 0 {
		t.Book.MaxBytes = b.MaxBytes
	}
	s.learn = &sessionLessons{tracker: t, keeper: b.keeper, root: ctx.ActorSystem().Root, self: ctx.Self()}
}

// learnFrom feeds an emitted event to the tracker: a lesson learnt is handed to the keeper, and
// lessons brought in by a failure are announced.
func (s *session) learnFrom(p messages.Payload) {
	if s.learn == nil {
		return
	}
	learnt, given := s.learn.tracker.Observe(p.EventType(), p.Data())
	for _, l := range learnt {
		if s.learn.keeper.learn(s.learn.root, s.learn.self, s.turn, l) {
			s.learn.pending++
		}
	}
	if given != nil {
		s.emit(messages.LessonsGivenEvent.Of(given))
	}
}

// lessonTask looks up the lessons for a new task.
func (s *session) lessonTask(text string) {
	if s.learn == nil {
		return
	}
	if given := s.learn.tracker.Task(text); given != nil {
		given.Turn = s.turn + 1 // given to the turn about to start
		s.emit(messages.LessonsGivenEvent.Of(given))
	}
}

// lessonBlocks is the state block of lessons, when there are any to give.
func (s *session) lessonBlocks() []projection.StateBlock {
	if s.learn == nil {
		return nil
	}
	if body := s.learn.tracker.Book.Block(); body != "" {
		return []projection.StateBlock{{Title: lessons.BlockTitle, Body: body}}
	}
	return nil
}

// onLessonStored emits lesson.stored once the keeper has written the lesson.
func (s *session) onLessonStored(m *lessonStored) {
	if s.learn != nil {
		s.learn.pending--
	}
	if !s.finished() || s.learn != nil && s.learn.holding {
		s.emit(messages.LessonStoredEvent.Of(&m.data))
	}
}

// scoreLessons hands the session's outcomes to the keeper, once, when it finishes.
func (s *session) scoreLessons() {
	if s.learn == nil || s.learn.scored || s.learn.tracker.Book.Len() == 0 {
		return
	}
	s.learn.scored = true
	s.learn.keeper.score(s.learn.tracker.Book.Outcomes())
}
