package actors

import (
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

func TestToolBatchGivesRepeatedIDsTheirOwnCalls(t *testing.T) {
	b, calls := newToolBatch(3, []llm.ToolCall{{ID: "c", Name: "a"}, {ID: "c", Name: "b"}, {Name: "d"}, {ID: "c#2", Name: "e"}})
	ids := map[string]bool{}
	for _, c := range calls {
		if ids[c.ID] {
			t.Fatalf("id %q given twice: %+v", c.ID, calls)
		}
		ids[c.ID] = true
	}
	if calls[0].ID != "c" {
		t.Errorf("a unique provider id was renamed: %q", calls[0].ID)
	}
	if calls[2].ID == "" {
		t.Error("an empty id stayed empty")
	}
	if got := b.Calls(); len(got) != 4 || got[1].ID != calls[1].ID {
		t.Errorf("Calls = %+v", got)
	}
}

func TestToolBatchCommitsInCallOrderOncePerCall(t *testing.T) {
	b, calls := newToolBatch(1, []llm.ToolCall{{ID: "x", Name: "a"}, {ID: "x", Name: "b"}, {ID: "y", Name: "c"}})
	res := func(turn int, id, out string) *messages.ToolResult {
		return &messages.ToolResult{Turn: turn, CallID: id, Output: out}
	}
	if got := b.Add(res(1, calls[2].ID, "third")); len(got) != 0 {
		t.Fatalf("committed out of order: %+v", got)
	}
	if got := b.Add(res(2, calls[0].ID, "stale turn")); len(got) != 0 {
		t.Fatalf("a result of another turn was taken: %+v", got)
	}
	if got := b.Add(res(1, "nope", "unknown")); len(got) != 0 {
		t.Fatalf("a result for no call was taken: %+v", got)
	}
	got := b.Add(res(1, calls[0].ID, "first"))
	if len(got) != 1 || got[0].Result.Output != "first" || got[0].Call.Name != "a" {
		t.Fatalf("first commit = %+v", got)
	}
	if got := b.Add(res(1, calls[0].ID, "first again")); len(got) != 0 || b.Done() {
		t.Fatalf("a second result for one call was taken: %+v", got)
	}
	got = b.Add(res(1, calls[1].ID, "second"))
	if len(got) != 2 || got[0].Call.Name != "b" || got[0].Result.Output != "second" || got[1].Result.Output != "third" {
		t.Fatalf("second commit = %+v", got)
	}
	if !b.Done() {
		t.Error("not done with every call answered")
	}
}

func TestToolBatchTracksApprovals(t *testing.T) {
	b, calls := newToolBatch(1, []llm.ToolCall{{ID: "x", Name: "write_file"}})
	ask := func(turn int, id string) *messages.ApprovalRequestedData {
		return &messages.ApprovalRequestedData{Turn: turn, CallID: id}
	}
	if b.Await(ask(2, calls[0].ID)) || b.Await(ask(1, "other")) {
		t.Error("an approval for no call of this turn was taken")
	}
	if !b.Await(ask(1, calls[0].ID)) || !b.Awaiting(calls[0].ID) || len(b.Pending()) != 1 {
		t.Fatal("approval not recorded")
	}
	if b.Await(ask(1, calls[0].ID)) {
		t.Error("one call awaits twice")
	}
	b.Answered(calls[0].ID)
	if b.Awaiting(calls[0].ID) {
		t.Error("still awaiting after the answer")
	}
	b.Await(ask(1, calls[0].ID))
	b.Add(&messages.ToolResult{Turn: 1, CallID: calls[0].ID})
	if b.Awaiting(calls[0].ID) || len(b.Pending()) != 0 {
		t.Error("a call with its result still awaits approval")
	}
	if _, ok := b.Started(calls[0].ID, time.Now()); !ok {
		t.Error("Started does not know the call")
	}
	var none *toolBatch
	if !none.Done() || none.Awaiting("x") || none.Has(1, "x") || none.Pending() != nil {
		t.Error("a nil batch is not empty")
	}
}
