package openai

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// readAll returns the data of every event of stream, and the error that ended it.
func readAll(t *testing.T, stream string, limit int) ([]SSEEvent, error) {
	t.Helper()
	r := NewSSEReader(strings.NewReader(stream), limit)
	var out []SSEEvent
	for {
		ev, err := r.Next()
		if err != nil {
			return out, err
		}
		ev.Data = append([]byte(nil), ev.Data...)
		out = append(out, ev)
	}
}

func TestSSEReaderFollowsTheSpec(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		want         []string // type|id|data of each event
	}{
		{"lf", "data: a\n\ndata: b\n\n", []string{"||a", "||b"}},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"||a", "||b"}},
		{"lone cr", "data: a\r\rdata: b\r\r", []string{"||a", "||b"}},
		{"no space after colon", "data:{\"x\":1}\n\n", []string{`||{"x":1}`}},
		{"only one space dropped", "data:  two\n\n", []string{"|| two"}},
		{"comments", ": OPENROUTER PROCESSING\n\n:ping\ndata: a\n\n", []string{"||a"}},
		{"multi-line data", "data: one\ndata: two\ndata:\n\n", []string{"||one\ntwo\n"}},
		{"event and id", "event: error\nid: 7\ndata: x\n\ndata: y\n\n", []string{"error|7|x", "|7|y"}},
		{"field without colon", "data\n\ndata: a\n\n", []string{"||", "||a"}}, // an empty data line is an event
		{"unknown fields ignored", "retry: 100\nfoo: bar\ndata: a\n\n", []string{"||a"}},
		{"event without data is dropped", "event: ping\n\ndata: a\n\n", []string{"||a"}},
		{"last event without blank line", "data: a\n\ndata: [DONE]\n", []string{"||a", "||[DONE]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := readAll(t, tc.stream, 1<<10)
			if err != io.EOF {
				t.Fatalf("ended with %v, want io.EOF", err)
			}
			var got []string
			for _, e := range evs {
				got = append(got, e.Type+"|"+e.ID+"|"+string(e.Data))
			}
			if strings.Join(got, "¶") != strings.Join(tc.want, "¶") {
				t.Errorf("events %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSSEReaderCutLineIsUnexpectedEOF(t *testing.T) {
	evs, err := readAll(t, "data: a\n\ndata: {\"cho", 1<<10)
	if len(evs) != 1 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("%d events, err %v; want 1 and io.ErrUnexpectedEOF", len(evs), err)
	}
}

func TestSSEReaderBoundsLinesAndEvents(t *testing.T) {
	_, err := readAll(t, "data: "+strings.Repeat("x", 5000)+"\n\n", 1000)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("long line: err %v, want ErrTooLarge", err)
	}
	_, err = readAll(t, strings.Repeat("data: "+strings.Repeat("x", 100)+"\n", 20)+"\n", 1000)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("long event: err %v, want ErrTooLarge", err)
	}
}
