package store

import (
	"fmt"
	"strings"
	"testing"
)

// The open options (smallOptions) bound one transaction to 15 % of the memtable; these are the
// largest writes the store makes in one: a forked child's inherited context (Append of many
// entries), entries just under the value threshold (kept in the tree, not the value log), and
// one entry larger than a value-log file.
func TestLargeWritesFitTheOpenOptions(t *testing.T) {
	s, dir := openTemp(t)
	var fork []*Entry
	for i := range 48 { // 48 tool results of 24 KB: 1.1 MB in one transaction
		fork = append(fork, &Entry{Kind: KindToolResult, CallID: fmt.Sprint(i), ToolName: "read",
			Text: strings.Repeat(string(rune('a'+i%26)), 24<<10)})
	}
	if err := s.Append("fork", fork...); err != nil {
		t.Fatalf("Append of a forked context: %v", err)
	}
	var small []*Entry
	for i := range 100 { // just under ValueThreshold: all of it in the transaction's own size
		small = append(small, &Entry{Kind: KindAssistant, Text: strings.Repeat("s", 900) + fmt.Sprint(i)})
	}
	meta := &SessionMeta{ID: "small", Status: "running"}
	if err := s.AppendWithMeta(meta, small...); err != nil {
		t.Fatalf("AppendWithMeta of 100 entries under the value threshold: %v", err)
	}
	huge := &Entry{Kind: KindToolResult, CallID: "h", ToolName: "bash", Text: strings.Repeat("h", 9<<20)}
	if err := s.Append("huge", huge); err != nil {
		t.Fatalf("Append of a 9 MiB entry: %v", err)
	}

	s = reopen(t, s, dir)
	for session, want := range map[string][]*Entry{"fork": fork, "small": small, "huge": {huge}} {
		got, err := s.Log(session)
		if err != nil {
			t.Fatalf("Log(%s): %v", session, err)
		}
		if len(got) != len(want) {
			t.Fatalf("Log(%s): %d entries, want %d", session, len(got), len(want))
		}
		for i := range want {
			if got[i].Text != want[i].Text {
				t.Errorf("Log(%s) entry %d: %d bytes, want %d", session, i, len(got[i].Text), len(want[i].Text))
			}
		}
	}
}
