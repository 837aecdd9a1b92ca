package projection

import (
	"encoding/json"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/store"
)

// NoteEvent marks a system entry that is a harness note to the model, shown to it as a user
// message; other system entries are audit records the model never sees.
const NoteEvent = "note"

// NotePrefix marks a harness note so the model can tell it from the user's words.
const NotePrefix = "[troupe] "

// Item is one projected unit of the log: a message the model may see, or a compact boundary.
type Item struct {
	Msg  llm.Message
	Seq  uint64    // the log entry's seq; boundaries and seqs decide what a boundary replaced
	Time time.Time // when the entry was appended; idle gaps are measured between items
	// Boundary is non-nil for a compact boundary entry; Msg is then ignored.
	Boundary *Boundary
}

// FromEntries converts a log (healed: see store.Heal) into items: user, assistant and
// tool_result entries become their messages, system notes become user messages marked with
// NotePrefix, and compact entries become boundaries. Other system entries are audit-only and
// skipped, as is a compact entry whose data does not describe a valid range: keeping the
// entries it meant to replace makes the context larger, never wrong.
func FromEntries(entries []*store.Entry) []Item {
	items := make([]Item, 0, len(entries))
	for _, e := range entries {
		it := Item{Seq: e.Seq, Time: e.Time}
		switch e.Kind {
		case store.KindUser:
			it.Msg = llm.Message{Role: llm.RoleUser, Content: e.Text}
		case store.KindAssistant:
			it.Msg = llm.Message{Role: llm.RoleAssistant, Content: e.Text, Reasoning: e.Reasoning, ReasoningBlocks: e.ReasoningBlocks, Model: e.Model}
			if len(e.Calls) > 0 {
				it.Msg.ToolCalls = make([]llm.ToolCall, len(e.Calls))
				for i, c := range e.Calls {
					it.Msg.ToolCalls[i] = llm.ToolCall{ID: c.ID, Name: c.Name, Args: c.Args}
				}
			}
		case store.KindToolResult:
			it.Msg = llm.Message{Role: llm.RoleTool, Content: e.Text, ToolCallID: e.CallID, ToolName: e.ToolName, IsError: e.IsError}
		case store.KindSystem:
			if e.Event != NoteEvent {
				continue
			}
			it.Msg = llm.Message{Role: llm.RoleUser, Content: NotePrefix + e.Text}
		case store.KindCompact:
			b, ok := decodeBoundary(e)
			if !ok {
				continue
			}
			it.Boundary = b
		default:
			continue
		}
		items = append(items, it)
	}
	return items
}

// decodeBoundary reads the Boundary a compact entry stores in Data. The entry's Text stands in
// for a missing summary. A boundary must replace a non-empty range that ends before the entry
// itself: it is appended after the entries it summarizes.
func decodeBoundary(e *store.Entry) (*Boundary, bool) {
	var b Boundary
	if len(e.Data) == 0 || json.Unmarshal(e.Data, &b) != nil {
		return nil, false
	}
	if b.Summary == "" {
		b.Summary = e.Text
	}
	if b.ToSeq == 0 || b.FromSeq > b.ToSeq || (e.Seq != 0 && b.ToSeq >= e.Seq) {
		return nil, false
	}
	return &b, true
}
