package lessons

import (
	"github.com/troupe-dev/troupe/messages"
)

// Tracker is a session's learning layer: its Capture learns from the events, its Book gives
// lessons before each task and after each failure. The session feeds it and does the effects:
// storing what was learnt, emitting, and showing Block in the request.
type Tracker struct {
	Capture Capture
	Book    *Book
	turn    int
}

// NewTracker makes the tracker of a session of model over the project's lessons.
func NewTracker(model, session string, lessons []messages.Lesson, epoch int) *Tracker {
	return &Tracker{Capture: Capture{Model: model, Session: session}, Book: NewBook(lessons, epoch)}
}

// Task is a new task: the block gets the lessons relevant to it. The result, if not nil, is
// the lessons.given event to emit.
func (t *Tracker) Task(text string) *messages.LessonsGivenData {
	t.Capture.Task = text
	return t.given(t.Book.ForTask(text), "task")
}

// Observe feeds one event. It returns the lessons learnt on it and, after a failure that
// brought new lessons into the block, the lessons.given event to emit.
func (t *Tracker) Observe(typ messages.EventType, data any) ([]messages.Lesson, *messages.LessonsGivenData) {
	if d, ok := data.(*messages.TurnStartedData); ok {
		t.turn = d.Turn
	}
	seen := t.Capture.Observe(typ, data)
	if seen.Failure == nil {
		return seen.Lessons, nil
	}
	return seen.Lessons, t.given(t.Book.AfterFailure(*seen.Failure), "failure")
}

func (t *Tracker) given(ids []string, cause string) *messages.LessonsGivenData {
	if len(ids) == 0 {
		return nil
	}
	return &messages.LessonsGivenData{Turn: t.turn, IDs: ids, Cause: cause, Bytes: len(t.Book.Block())}
}
