package actors

import (
	"fmt"
	"slices"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// toolBatch is the tool calls of one turn and their results. It owns the pairing invariant:
// every call gets exactly one result, and results are committed in call order whatever order
// they arrive in. It is a plain value owned by the session; it decides, the session acts.
//
// Each call gets an id that is unique within the batch (issue 10 item 8): a provider that
// repeats an id in one reply gets both calls run, each with its own result. The provider's id is
// kept whenever it is unique, so the common case is byte-identical on the wire; a repeat (or an
// empty id) is renamed, and the assistant message records the renamed id so the log pairs.
type toolBatch struct {
	turn      int
	calls     []batchCall                       // in call order
	committed int                               // calls[:committed] have committed results
	awaiting  []*messages.ApprovalRequestedData // calls waiting for an approval answer
	inferred  []string                          // ids of calls whose tool the harness inferred (turn.Decision.Inferred)
	index     map[string]int                    // a call's place in calls, by id: a reply of 10,000 spawns is looked up per result
}

type batchCall struct {
	call    llm.ToolCall // call.ID is the unique id
	result  *messages.ToolResult
	started time.Time
	// described is what the call runs as (turnState.callData), worked out on its first event:
	// resolving decodes and validates the arguments, and each call has three events.
	described *messages.ToolCallData
}

// committedResult is one call and its result, ready to be written to the log in call order.
type committedResult struct {
	Call    llm.ToolCall
	Result  *messages.ToolResult
	Started time.Time
}

// newToolBatch takes a reply's calls; the returned calls carry the unique ids and are what the
// assistant message records and what the executor is sent.
func newToolBatch(turn int, calls []llm.ToolCall) (*toolBatch, []llm.ToolCall) {
	b := &toolBatch{turn: turn, calls: make([]batchCall, len(calls)), index: make(map[string]int, len(calls))}
	out := make([]llm.ToolCall, len(calls))
	seen := make(map[string]bool, len(calls))
	for i, c := range calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call-%d-%d", turn, i+1)
		}
		for n := 2; seen[id]; n++ {
			id = fmt.Sprintf("%s#%d", c.ID, n)
		}
		seen[id] = true
		c.ID = id
		out[i] = c
		b.calls[i] = batchCall{call: c}
		b.index[id] = i
	}
	return b, out
}

// isInferred says whether the harness inferred call id's tool from a reply of bare arguments.
func (b *toolBatch) isInferred(id string) bool { return slices.Contains(b.inferred, id) }

// Calls are the batch's calls in call order, with their unique ids.
func (b *toolBatch) Calls() []llm.ToolCall {
	out := make([]llm.ToolCall, len(b.calls))
	for i, c := range b.calls {
		out[i] = c.call
	}
	return out
}

// find returns the call with id in this turn's batch, or nil.
func (b *toolBatch) find(turn int, id string) *batchCall {
	if b == nil || turn != b.turn {
		return nil
	}
	if i, ok := b.index[id]; ok {
		return &b.calls[i]
	}
	return nil
}

// Has reports whether id is a call of this turn's batch.
func (b *toolBatch) Has(turn int, id string) bool { return b.find(turn, id) != nil }

// Started records that the executor began a call; it returns the call, false if it is unknown.
func (b *toolBatch) Started(id string, now time.Time) (llm.ToolCall, bool) {
	c := b.find(b.turnOrZero(), id)
	if c == nil {
		return llm.ToolCall{}, false
	}
	c.started = now
	return c.call, true
}

func (b *toolBatch) turnOrZero() int {
	if b == nil {
		return 0
	}
	return b.turn
}

// Add takes one result and returns the results now ready to commit, in call order. A result for
// another turn, an unknown call or a call already answered is dropped: each call keeps exactly
// one result.
func (b *toolBatch) Add(res *messages.ToolResult) []committedResult {
	c := b.find(res.Turn, res.CallID)
	if c == nil || c.result != nil {
		return nil
	}
	c.result = res
	b.Answered(res.CallID)
	var ready []committedResult
	for b.committed < len(b.calls) {
		next := b.calls[b.committed]
		if next.result == nil {
			break
		}
		ready = append(ready, committedResult{Call: next.call, Result: next.result, Started: next.started})
		b.committed++
	}
	return ready
}

// Done reports whether every call has a committed result.
func (b *toolBatch) Done() bool { return b == nil || b.committed == len(b.calls) }

// Await records that a call waits for an approval answer; false for a call not in the batch
// (or one already waiting).
func (b *toolBatch) Await(ask *messages.ApprovalRequestedData) bool {
	if b.find(ask.Turn, ask.CallID) == nil || b.Awaiting(ask.CallID) {
		return false
	}
	b.awaiting = append(b.awaiting, ask)
	return true
}

// Awaiting reports whether a call waits for an approval answer.
func (b *toolBatch) Awaiting(id string) bool {
	return b != nil && slices.ContainsFunc(b.awaiting, func(a *messages.ApprovalRequestedData) bool { return a.CallID == id })
}

// Pending are the approval requests not answered yet, in the order they came.
func (b *toolBatch) Pending() []*messages.ApprovalRequestedData {
	if b == nil {
		return nil
	}
	return b.awaiting
}

// Answered records that an approval answer for id went to the executor.
func (b *toolBatch) Answered(id string) {
	b.awaiting = slices.DeleteFunc(b.awaiting, func(a *messages.ApprovalRequestedData) bool { return a.CallID == id })
}
