package actors

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// A session whose log is far larger than one bus message comes back whole, page by page, in
// order: troupe log never hits the bus payload limit.
func TestLongLogIsPagedOverTheBus(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "hello"}]}`)
	const id, n = "big", 60
	if err := tn.Store().PutMeta(&store.SessionMeta{ID: id, Status: "done"}); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 40<<10) // 60 × 40 KiB = 2.4 MiB, over NATS's 1 MiB max_payload
	for i := 0; i < n; i++ {
		if err := tn.Store().Append(id, &store.Entry{Kind: store.KindToolResult, CallID: "c", ToolName: "bash", Text: big}); err != nil {
			t.Fatal(err)
		}
	}
	pages := 0
	var got []messages.LogEntry
	err := tn.client.LogPages(id, func(meta *messages.SessionInfo, page []messages.LogEntry) error {
		pages++
		if meta.ID != id {
			t.Errorf("page %d: meta of %q", pages, meta.ID)
		}
		got = append(got, page...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n || pages < 3 {
		t.Fatalf("%d entries in %d pages, want %d in several", len(got), pages, n)
	}
	for i, e := range got {
		if e.Seq != uint64(i+1) || len(e.Text) != len(big) || e.Kind != messages.LogToolResult {
			t.Fatalf("entry %d: seq %d, kind %s, %d bytes", i, e.Seq, e.Kind, len(e.Text))
		}
	}
}
