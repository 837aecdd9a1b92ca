package projection

import (
	"fmt"

	"github.com/troupe-dev/troupe/llm"
)

// Violations lists every way msgs breaks the pairing invariant providers enforce: each tool
// call of an assistant message is answered, before the next assistant message, by exactly one
// tool result carrying its id, in call order. Orphan results, duplicate results, results out of
// call order, calls left unanswered and calls sharing an id within one message are all
// reported. User messages (notes) between results are allowed. It returns nil for a valid list.
func Violations(msgs []llm.Message) []string {
	var (
		v        []string
		calls    []llm.ToolCall // of the last assistant message
		answered []bool
		at       = -1 // index of that message
	)
	unanswered := func(before string) {
		for k, c := range calls {
			if !answered[k] {
				v = append(v, fmt.Sprintf("message %d: call %q (%s) has no result %s", at, c.ID, c.Name, before))
			}
		}
	}
	for i, m := range msgs {
		switch m.Role {
		case llm.RoleAssistant:
			unanswered(fmt.Sprintf("before the next assistant message (%d)", i))
			calls, answered, at = m.ToolCalls, make([]bool, len(m.ToolCalls)), i
			seen := make(map[string]bool, len(calls))
			for _, c := range calls {
				if seen[c.ID] {
					v = append(v, fmt.Sprintf("message %d: two calls share the id %q", i, c.ID))
				}
				seen[c.ID] = true
			}
		case llm.RoleTool:
			v = append(v, checkResult(i, m, calls, answered)...)
		}
	}
	unanswered("at the end of the list")
	return v
}

// checkResult matches result i against the calls of the assistant message before it, marks the
// call it answers, and says what is wrong with it, if anything.
func checkResult(i int, m llm.Message, calls []llm.ToolCall, answered []bool) []string {
	first, match, dup := -1, -1, false
	for k, c := range calls {
		if answered[k] {
			dup = dup || c.ID == m.ToolCallID
			continue
		}
		if first < 0 {
			first = k
		}
		if match < 0 && c.ID == m.ToolCallID {
			match = k
		}
	}
	switch {
	case match >= 0:
		answered[match] = true
		if match != first {
			return []string{fmt.Sprintf("message %d: result for call %q is out of call order (call %q comes first)", i, m.ToolCallID, calls[first].ID)}
		}
		return nil
	case dup:
		return []string{fmt.Sprintf("message %d: duplicate result for call %q", i, m.ToolCallID)}
	default:
		return []string{fmt.Sprintf("message %d: result for call %q answers no call of the assistant message before it", i, m.ToolCallID)}
	}
}

// SafeCut returns the smallest j ≥ i at which items can be cut — items[:j] replaced, items[j:]
// kept — without separating any tool call from its result, and where items[j] starts a turn (a
// user or assistant message: never a tool result, never a boundary). j == len(items) (replace
// everything) qualifies when no call in items is still unanswered. It returns -1 when no index
// qualifies: a call still waiting for its result (a batch in flight, an unhealed log) straddles
// every later cut.
func SafeCut(items []Item, i int) int {
	safe := cutPoints(items)
	for j := max(i, 0); j < len(safe); j++ {
		if safe[j] {
			return j
		}
	}
	return -1
}

// cutPoints reports, for each j in [0, len(items)], whether cutting before items[j] is safe.
// A result answers the most recent unanswered call with its id, as store.Heal pairs them, so
// providers that reuse ids across turns ("call_0") pair correctly. A call at index a answered
// at index r forbids the cuts a+1..r; an unanswered call forbids every cut after it.
func cutPoints(items []Item) []bool {
	n := len(items)
	cover := make([]int, n+2) // difference array of forbidden cuts
	open := make(map[string][]int)
	for i, it := range items {
		if it.Boundary != nil {
			continue
		}
		switch it.Msg.Role {
		case llm.RoleAssistant:
			for k := len(it.Msg.ToolCalls) - 1; k >= 0; k-- {
				id := it.Msg.ToolCalls[k].ID
				open[id] = append(open[id], i)
			}
		case llm.RoleTool:
			stack := open[it.Msg.ToolCallID]
			if len(stack) == 0 {
				continue // an orphan straddles nothing
			}
			a := stack[len(stack)-1]
			open[it.Msg.ToolCallID] = stack[:len(stack)-1]
			cover[a+1]++
			cover[i+1]--
		}
	}
	for _, stack := range open {
		for _, a := range stack {
			cover[a+1]++
			cover[n+1]--
		}
	}
	safe := make([]bool, n+1)
	depth := 0
	for j := 0; j <= n; j++ {
		depth += cover[j]
		safe[j] = depth == 0 && (j == n || startsTurn(items[j]))
	}
	return safe
}

// startsTurn reports whether it can open the kept part of a cut list.
func startsTurn(it Item) bool {
	return it.Boundary == nil && (it.Msg.Role == llm.RoleUser || it.Msg.Role == llm.RoleAssistant)
}
