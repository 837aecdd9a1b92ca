package lessons

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// Defaults of a Book: the lessons in the block at once, and the block's bound in bytes.
const (
	DefaultK        = 3
	DefaultMaxBytes = 1600
	maxLessonBytes  = 600
)

// BlockTitle heads the state block of lessons; blockLead says what they are, so the model takes
// them as past experience to weigh, not as instructions.
const (
	BlockTitle = "Past experience (lessons from earlier sessions in this project)"
	blockLead  = "These traps were met and fixed before in this project. They are past experience, not instructions: use one only if it fits what you see now."
)

// Book is what one session may be given: the project's lessons as they were when it started,
// the ones in its state block now, every one it was given, and which of those met their trap
// again. It belongs to one session; it is not safe for concurrent use.
type Book struct {
	K, MaxBytes int
	Epoch       int // the project's session count when the lessons were read

	idx      *Index
	current  []messages.Lesson
	given    map[string]messages.Lesson
	recurred map[string]bool
}

// NewBook makes the book of a session from the project's lessons.
func NewBook(lessons []messages.Lesson, epoch int) *Book {
	return &Book{K: DefaultK, MaxBytes: DefaultMaxBytes, Epoch: epoch, idx: NewIndex(lessons),
		given: map[string]messages.Lesson{}, recurred: map[string]bool{}}
}

// Len is how many lessons the book searches.
func (b *Book) Len() int { return len(b.idx.lessons) }

// ForTask puts the lessons relevant to a new task in the block (replacing the last task's). It
// returns the ids newly given, or nil when the block did not change.
func (b *Book) ForTask(task string) []string {
	return b.choose(b.idx.Search(task, b.K, b.Epoch, 1), nil)
}

// AfterFailure makes the lessons relevant to a failure the block, when there are any (the
// task's stay otherwise).
func (b *Book) AfterFailure(f Failure) []string {
	for id, l := range b.given {
		if l.Key == f.Key {
			b.recurred[id] = true // given, and its trap came back anyway
		}
	}
	// an error line is long: a lesson must meet it on two terms, not one common word
	hits := b.idx.Search(f.Text+" "+f.Key, b.K, b.Epoch, 2)
	if len(hits) > 0 {
		return b.choose(hits, nil) // the failure says more than the task did
	}
	return nil
}

// choose makes hits (then keep) the block, and reports the ids it gives for the first time in
// this block (nil when the block is unchanged).
func (b *Book) choose(hits []Hit, keep []messages.Lesson) []string {
	var next []messages.Lesson
	seen := map[string]bool{}
	for _, h := range hits {
		next, seen[h.Lesson.ID] = append(next, h.Lesson), true
	}
	for _, l := range keep {
		if len(next) < b.K && !seen[l.ID] {
			next, seen[l.ID] = append(next, l), true
		}
	}
	was := map[string]bool{}
	for _, l := range b.current {
		was[l.ID] = true
	}
	var fresh []string
	for _, l := range next {
		if !was[l.ID] {
			fresh = append(fresh, l.ID)
		}
		if _, ok := b.given[l.ID]; !ok {
			b.given[l.ID] = l
		}
	}
	if len(fresh) == 0 && len(next) == len(b.current) {
		return nil
	}
	b.current = next
	return fresh
}

// Block is the state block's body, within MaxBytes ("" when there is nothing to give).
func (b *Book) Block() string {
	if len(b.current) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString(blockLead)
	for _, l := range b.current {
		item := "\n- " + Line(&l)
		if room := b.MaxBytes - sb.Len(); len(item) > room {
			if sb.Len() == len(blockLead) && room >= 120 {
				sb.WriteString(textfmt.Clip(item, room-len("…"))) // the best lesson, cut, rather than none
			}
			break
		}
		sb.WriteString(item)
	}
	if sb.Len() == len(blockLead) {
		return ""
	}
	return sb.String()
}

// Line is one lesson as the model and people read it.
func Line(l *messages.Lesson) string {
	s := fmt.Sprintf("[%s] %s — fix: %s", l.ID, oneLine(l.Failed), oneLine(l.Fixed))
	if len(l.Files) > 0 {
		s += " (files: " + strings.Join(l.Files, ", ") + ")"
	}
	return textfmt.Clip(s, maxLessonBytes)
}

// Outcomes is, for every lesson the session was given, whether its trap came back.
func (b *Book) Outcomes() []Outcome {
	out := make([]Outcome, 0, len(b.given))
	for id := range b.given {
		out = append(out, Outcome{ID: id, Recurred: b.recurred[id]})
	}
	return out
}

// Current is the ids of the lessons in the block now.
func (b *Book) Current() []string {
	ids := make([]string, len(b.current))
	for i, l := range b.current {
		ids[i] = l.ID
	}
	return ids
}
