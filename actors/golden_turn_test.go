package actors

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGoldenTurnTranscript drives one whole headless session against the scripted provider —
// a turn that reads, edits and runs a command, then the final answer — and compares its event
// stream with testdata/golden_turn.jsonl, normalized for what differs between runs (times,
// durations, the namespace and the temporary root). It guards refactors of the session: the
// events a client sees must not change unless the change is meant, and then the file is
// rewritten with -update and the diff read.
func TestGoldenTurnTranscript(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"text": "Let me look.", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "alpha", "new_string": "beta"}},
		                {"name": "bash", "args": {"command": "cat a.txt"}}]},
		{"text": "a.txt now says beta."}]}`)
	fin := tn.run(t, "golden", "change alpha to beta in a.txt")
	if fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	var got bytes.Buffer
	for _, e := range tn.sessionEvents("golden") {
		got.WriteString(normalizeEvent(t, e, tn.Root, tn.NS))
		got.WriteByte('\n')
	}
	path := filepath.Join("testdata", "golden_turn.jsonl")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./actors -run TestGoldenTurnTranscript -update to record it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("event stream differs from %s at line %d:\n got: %s\nwant: %s\n(rerun with -update if the change is meant, and read the diff)", path, i+1, g, w)
			}
		}
	}
}

// varying are the data fields whose values differ between runs of the same script: times and
// durations, and the sizes that follow the length of the temporary root (it is in the system
// prompt) or the prompt's wording, which other work changes on its own.
var varying = regexp.MustCompile(`"(duration_ms|elapsed_ms|latency_ms|ms|started_at|ended_at|at|ts|time|wall_ms|pid|mtime|prompt_bytes|request_bytes|input_tokens|total_input_tokens|cache_read_tokens|cache_write_tokens)":("[^"]*"|[0-9.e+-]+)`)

// normalizeEvent prints one event as a line of JSON with the run's accidents replaced: no
// timestamp, the namespace and the root spelled as NS and ROOT, timing fields zeroed.
func normalizeEvent(t *testing.T, e *messages.Envelope, root, ns string) string {
	t.Helper()
	c := *e
	raw, err := json.Marshal(struct {
		Seq     uint64             `json:"seq"`
		Session string             `json:"session"`
		Agent   string             `json:"agent,omitempty"`
		Parent  string             `json:"parent,omitempty"`
		Type    messages.EventType `json:"type"`
		Data    json.RawMessage    `json:"data,omitempty"`
		DataRef string             `json:"data_ref,omitempty"`
	}{c.Seq, c.Session, c.Agent, c.Parent, c.Type, c.Data, c.DataRef})
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	s = strings.ReplaceAll(s, root, "ROOT")
	if ns != "" {
		s = strings.ReplaceAll(s, ns, "NS")
	}
	return varying.ReplaceAllString(s, `"$1":0`)
}
