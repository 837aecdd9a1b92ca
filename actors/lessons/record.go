package lessons

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"

	"github.com/troupe-dev/troupe/messages"
)

// Fading: a lesson's weight halves every fadeHalfLife sessions it goes ungiven, and it is
// dropped once its weight falls below dropBelow (never helped and unused for about 66 sessions,
// or its trap came back through it five times without it ever helping).
const (
	fadeHalfLife = 20.0
	dropBelow    = 0.1
)

// Weight is how much a lesson's relevance counts: lessons that helped rise, lessons whose trap
// came back anyway sink, and all fade with the sessions they go unused.
func Weight(l *messages.Lesson, epoch int) float64 {
	w := float64(1+l.Helped) / float64(1+2*l.Recurred)
	idle := max(0, epoch-l.LastEpoch)
	return w * math.Pow(0.5, float64(idle)/fadeHalfLife)
}

// Dropped says whether a lesson has faded out and should be deleted.
func Dropped(l *messages.Lesson, epoch int) bool { return Weight(l, epoch) < dropBelow }

// Encode is a lesson's stored record.
func Encode(l *messages.Lesson) ([]byte, error) {
	b, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("encode lesson %s: %w", l.ID, err)
	}
	return b, nil
}

// Decode reads the record stored under id. A record that is not a whole lesson is an error
// whose text is the one line shown for it.
func Decode(id string, data []byte) (messages.Lesson, error) {
	var l messages.Lesson
	if err := json.Unmarshal(data, &l); err != nil {
		return l, fmt.Errorf("lesson %s: its record is damaged (%v); skipped — `troupe lessons forget %s` removes it", id, err, id)
	}
	if l.ID != id || l.Trigger == "" || l.Failed == "" || l.Fixed == "" {
		return l, fmt.Errorf("lesson %s: its record is incomplete (id %q, trigger %q); skipped — `troupe lessons forget %s` removes it", id, l.ID, l.Trigger, id)
	}
	return l, nil
}

// Merge folds a lesson learnt again into the stored one: the id, the score and the first
// failure stay; the latest fix, the files and the model are taken from the new one.
func Merge(old, learnt messages.Lesson, epoch int) messages.Lesson {
	m := old
	m.Fixed, m.Model, m.Session, m.Updated = learnt.Fixed, learnt.Model, learnt.Session, learnt.Updated
	if learnt.Task != "" && !strings.Contains(m.Task, learnt.Task) {
		m.Task = textfmt.Clip(strings.TrimSpace(m.Task+" / "+learnt.Task), 600) // every task it was met on
	}
	for _, f := range learnt.Files {
		if !slices.Contains(m.Files, f) {
			m.Files = append(m.Files, f)
		}
	}
	m.Seen++
	m.LastEpoch = max(m.LastEpoch, epoch)
	return m
}

// Outcome is what a session says of one lesson it was given: whether its trap came back.
type Outcome struct {
	ID       string
	Recurred bool
}

// Apply scores a lesson with a session's outcome.
func Apply(l messages.Lesson, o Outcome, epoch int, now time.Time) messages.Lesson {
	l.Given++
	if o.Recurred {
		l.Recurred++
	} else {
		l.Helped++
	}
	l.LastEpoch = max(l.LastEpoch, epoch)
	l.Updated = now.UTC()
	return l
}
