package lessons

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// A new session that meets a recorded trap gets the lesson that fixed it: after the failure,
// though its task shares nothing with the one the lesson was learnt on.
func TestANewSessionMeetingTheTrapGetsItsLesson(t *testing.T) {
	learnt, _ := Learn(readRecording(t, "testdata/cmd_fix.jsonl"), "openai/m", "s1")
	var cmdLesson messages.Lesson
	for _, l := range learnt {
		if l.Trigger == messages.LessonCommandFailed {
			cmdLesson = l
		}
	}
	tr := NewTracker("openai/m", "s2", learnt, 0)
	if given := tr.Task("rename the Lister interface"); given != nil && slices.Contains(given.IDs, cmdLesson.ID) {
		t.Errorf("an unrelated task got the store lesson: %+v", given)
	}
	tr.Observe(messages.EventToolStarted, &messages.ToolCallData{CallID: "x", Tool: "bash", Args: `{"command":"go test ./store"}`})
	_, given := tr.Observe(messages.EventToolFinished, &messages.ToolFinishedData{CallID: "x", Tool: "bash", IsError: true,
		Output: "    store_test.go:57: open: badger: Manifest has unsupported version 7\n[exit code 1]"})
	if given == nil || given.Cause != "failure" || !slices.Contains(given.IDs, cmdLesson.ID) {
		t.Fatalf("after the same failure, given = %+v; want %s", given, cmdLesson.ID)
	}
	block := tr.Book.Block()
	if !strings.HasPrefix(block, blockLead) || !strings.Contains(block, "WithExternalMagic(7)") {
		t.Fatalf("the block does not carry the fix, marked as past experience:\n%s", block)
	}
	// the trap was met after the lesson was given? Not yet: the failure that brought it counts
	// for nothing; the same failure once more is a recurrence.
	if o := tr.Book.Outcomes(); len(o) != 1 || o[0].Recurred {
		t.Fatalf("outcomes = %+v, want one that helped", o)
	}
	tr.Observe(messages.EventToolStarted, &messages.ToolCallData{CallID: "y", Tool: "bash", Args: `{"command":"go test ./store"}`})
	tr.Observe(messages.EventToolFinished, &messages.ToolFinishedData{CallID: "y", Tool: "bash", IsError: true,
		Output: "    store_test.go:60: open: badger: Manifest has unsupported version 7\n[exit code 1]"})
	if o := tr.Book.Outcomes(); len(o) != 1 || !o[0].Recurred {
		t.Fatalf("outcomes = %+v, want its trap recurred", o)
	}
}

// The block never grows past its bound in bytes, however many and however long the lessons.
func TestTheStateBlockIsBoundedInBytes(t *testing.T) {
	var ls []messages.Lesson
	for i := range 20 {
		ls = append(ls, messages.Lesson{ID: fmt.Sprintf("l%02d", i), Trigger: messages.LessonCommandFailed,
			Failed: fmt.Sprintf("`make deploy` failed: svc%d quota exceeded ", i) + strings.Repeat("quota ", 200), Fixed: strings.Repeat("wait and retry ", 100)})
	}
	for _, bound := range []int{200, 700, DefaultMaxBytes, 5000} {
		b := NewBook(ls, 0)
		b.MaxBytes, b.K = bound, 10
		b.ForTask("deploy svc1 svc2 svc3 svc4 svc5 svc6 svc7 svc8 svc9")
		got := b.Block()
		if len(got) > bound {
			t.Errorf("bound %d: block is %d bytes", bound, len(got))
		}
		if bound >= 700 && !strings.Contains(got, "[l") {
			t.Errorf("bound %d: no lesson fits: %q", bound, got)
		}
	}
}

// Helpers rise, recurrers sink, and unused lessons fade until they are dropped.
func TestScoringRaisesHelpersAndFadesTheRest(t *testing.T) {
	base := messages.Lesson{ID: "a", LastEpoch: 10}
	helped := Apply(base, Outcome{ID: "a"}, 10, base.Created)
	recurred := Apply(base, Outcome{ID: "a", Recurred: true}, 10, base.Created)
	if !(Weight(&helped, 10) > Weight(&base, 10) && Weight(&base, 10) > Weight(&recurred, 10)) {
		t.Fatalf("weights: helped %.2f, new %.2f, recurred %.2f", Weight(&helped, 10), Weight(&base, 10), Weight(&recurred, 10))
	}
	if Dropped(&base, 10) || Dropped(&base, 50) || !Dropped(&base, 10+80) {
		t.Errorf("an unused lesson must last ~60 sessions, then be dropped (weights %.2f %.2f)", Weight(&base, 50), Weight(&base, 90))
	}
	bad := base
	for range 5 {
		bad = Apply(bad, Outcome{ID: "a", Recurred: true}, 10, base.Created)
	}
	if !Dropped(&bad, 10) {
		t.Errorf("a lesson whose trap came back 5 times through it must go: weight %.2f", Weight(&bad, 10))
	}
	// ranking: of two equally relevant lessons, the one that helped comes first
	a := messages.Lesson{ID: "a", Trigger: messages.LessonCommandFailed, Failed: "`npm test` failed: ECONNREFUSED redis", Fixed: "ran `redis-server --daemonize yes`"}
	b := a
	b.ID, b.Helped, b.Given = "b", 3, 3
	hits := NewIndex([]messages.Lesson{a, b}).Search("ECONNREFUSED redis", 2, 0, 1)
	if len(hits) == 0 || hits[0].Lesson.ID != "b" {
		t.Errorf("hits = %+v, want the helper first", hits)
	}
}

// A damaged or incomplete record is an error naming the lesson and how to remove it.
func TestADamagedRecordIsOneClearLine(t *testing.T) {
	for _, data := range []string{"{not json", `{"id":"other","trigger":"loop","failed":"x","fixed":"y"}`, `{"id":"abc"}`} {
		_, err := Decode("abc", []byte(data))
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "troupe lessons forget abc") {
			t.Errorf("Decode(%q) = %v", data, err)
		}
	}
	l := messages.Lesson{ID: "abc", Trigger: messages.LessonLoop, Failed: "x", Fixed: "y"}
	data, _ := Encode(&l)
	if got, err := Decode("abc", data); err != nil || got.ID != "abc" {
		t.Errorf("round trip: %+v %v", got, err)
	}
}
