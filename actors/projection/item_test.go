package projection

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/store"
)

func TestFromEntries(t *testing.T) {
	at := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	data := func(b Boundary) json.RawMessage {
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	entries := []*store.Entry{
		{Seq: 1, Time: at, Kind: store.KindUser, Text: "fix the test"},
		{Seq: 2, Kind: store.KindAssistant, Text: "looking", Reasoning: "hmm", Model: "m1",
			Calls: []store.Call{{ID: "c1", Name: "bash", Args: `{"command":"go test"}`}}},
		{Seq: 3, Kind: store.KindToolResult, Text: "FAIL", CallID: "c1", ToolName: "bash", IsError: true},
		{Seq: 4, Kind: store.KindSystem, Event: NoteEvent, Text: "the user approved"},
		{Seq: 5, Kind: store.KindSystem, Event: "tool.rejected", Text: "audit only"},
		{Seq: 6, Kind: store.KindCompact, Text: "old", Data: data(Boundary{FromSeq: 1, ToSeq: 5, Summary: "did things"})},
		{Seq: 7, Kind: store.KindCompact, Text: "from text", Data: data(Boundary{FromSeq: 1, ToSeq: 6})},
		{Seq: 8, Kind: store.KindCompact, Text: "no data"},
		{Seq: 9, Kind: store.KindCompact, Data: json.RawMessage(`{not json`)},
		{Seq: 10, Kind: store.KindCompact, Data: data(Boundary{FromSeq: 1, ToSeq: 10})}, // covers itself
		{Seq: 11, Kind: store.KindCompact, Data: data(Boundary{FromSeq: 5, ToSeq: 3})},  // backwards
		{Seq: 12, Kind: store.KindCompact, Data: data(Boundary{})},                      // empty range
		{Seq: 13, Kind: store.EntryKind("future"), Text: "unknown kinds are skipped"},
		{Seq: 14, Kind: store.KindAssistant, Text: "done"},
	}
	want := []Item{
		{Seq: 1, Time: at, Msg: llm.Message{Role: llm.RoleUser, Content: "fix the test"}},
		{Seq: 2, Msg: llm.Message{Role: llm.RoleAssistant, Content: "looking", Reasoning: "hmm", Model: "m1",
			ToolCalls: []llm.ToolCall{{ID: "c1", Name: "bash", Args: `{"command":"go test"}`}}}},
		{Seq: 3, Msg: llm.Message{Role: llm.RoleTool, Content: "FAIL", ToolCallID: "c1", ToolName: "bash", IsError: true}},
		{Seq: 4, Msg: llm.Message{Role: llm.RoleUser, Content: "[troupe] the user approved"}},
		{Seq: 6, Boundary: &Boundary{FromSeq: 1, ToSeq: 5, Summary: "did things"}},
		{Seq: 7, Boundary: &Boundary{FromSeq: 1, ToSeq: 6, Summary: "from text"}},
		{Seq: 14, Msg: llm.Message{Role: llm.RoleAssistant, Content: "done"}},
	}
	got := FromEntries(entries)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromEntries:\ngot  %+v\nwant %+v", got, want)
	}
}

// TestBoundaryEntryRoundTrip checks that the entry Entry makes comes back as the same boundary.
func TestBoundaryEntryRoundTrip(t *testing.T) {
	b := Boundary{FromSeq: 3, ToSeq: 40, Summary: "s", FilesTouched: []string{"a.go"}, KeyResults: []string{"$ go test → ok"},
		OpenIssues: []string{"flaky"}, Mechanical: true, Reason: "auto-compact"}
	e, err := b.Entry()
	if err != nil {
		t.Fatal(err)
	}
	if e.Kind != store.KindCompact || e.Text != b.Summary {
		t.Errorf("Entry() = kind %q text %q, want compact %q", e.Kind, e.Text, b.Summary)
	}
	e.Seq = 41
	items := FromEntries([]*store.Entry{e})
	if len(items) != 1 || items[0].Boundary == nil || !reflect.DeepEqual(*items[0].Boundary, b) {
		t.Errorf("round trip: got %+v, want boundary %+v", items, b)
	}
}
