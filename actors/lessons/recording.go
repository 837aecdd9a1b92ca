package lessons

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/troupe-dev/troupe/messages"
)

// Recorded is one event of a recorded session: its type and its decoded payload.
type Recorded struct {
	Type messages.EventType
	Data any
}

// ReadRecording reads a recorded session: one event per line, as `troupe run --json` prints
// envelopes (only type and data are read). Blank lines and events of unknown types are
// skipped; a line that is not JSON is an error naming it.
func ReadRecording(r io.Reader) ([]Recorded, error) {
	var out []Recorded
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 8<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var env messages.Envelope
		if err := json.Unmarshal(line, &env); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if messages.NewEventData(env.Type) == nil {
			continue
		}
		data, err := env.DecodeData()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, Recorded{Type: env.Type, Data: data})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read recording: %w", err)
	}
	return out, nil
}

// Learn replays a recorded session through a fresh Capture and returns the lessons it learnt
// and the failures it saw.
func Learn(events []Recorded, model, session string) ([]messages.Lesson, []Failure) {
	c := Capture{Model: model, Session: session}
	var learnt []messages.Lesson
	var failures []Failure
	for _, e := range events {
		seen := c.Observe(e.Type, e.Data)
		learnt = append(learnt, seen.Lessons...)
		if seen.Failure != nil {
			failures = append(failures, *seen.Failure)
		}
	}
	return learnt, failures
}
