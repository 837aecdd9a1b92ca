package actors

import (
	"io"
	"log/slog"
	"testing"

	"github.com/troupe-dev/troupe/actors/lessons"
	"github.com/troupe-dev/troupe/messages"
)

func TestSessionLessonsWithoutBookLearnNothing(t *testing.T) {
	if newSessionLessons(nil, "m", "s1", nil, nil) != nil || newSessionLessons(&LessonBook{}, "m", "s1", nil, nil) != nil {
		t.Fatal("a session without a book (or its keeper) has lessons")
	}
	var l *sessionLessons
	if l.hold() != nil || l.observe(messages.Payload{}, 1) != nil || l.task("x", 1).EventType() != "" || l.blocks() != nil {
		t.Fatal("nil lessons acted")
	}
	l.score()
	if l.stored(&lessonStored{}, false).EventType() != messages.LessonStoredEvent.Type {
		t.Fatal("a lesson stored before the finish is not announced")
	}
}

func TestSessionLessonsStoredAndHeld(t *testing.T) {
	closed := &lessonKeeper{closed: true, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	tests := []struct {
		name              string
		pending           int
		holding, finished bool
		announced         bool // lesson.stored is emitted
		holds             bool // a finish now waits
	}{
		{name: "stored mid-run", pending: 1, announced: true, holds: false},
		{name: "stored after a finish that did not wait", pending: 2, finished: true, holds: true},
		{name: "stored while the finish waits", pending: 2, holding: true, finished: true, announced: true},
		{name: "nothing pending: no hold", pending: 1, finished: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &sessionLessons{tracker: lessons.NewTracker("m", "s1", nil, 0), keeper: closed, pending: tc.pending, holding: tc.holding}
			ev := l.stored(&lessonStored{}, tc.finished)
			if (ev.EventType() != "") != tc.announced {
				t.Fatalf("announced = %v, want %v", ev.EventType() != "", tc.announced)
			}
			if l.pending != tc.pending-1 {
				t.Fatalf("pending = %d, want %d", l.pending, tc.pending-1)
			}
			if got := l.hold() != nil; got != tc.holds {
				t.Fatalf("holds = %v, want %v", got, tc.holds)
			}
			if tc.holds && l.hold() != nil {
				t.Fatal("a finish is held twice")
			}
		})
	}
}
