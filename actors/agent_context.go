package actors

import (
	"fmt"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// defaultForkTurns is how many of the parent's turns a partial fork gets when fork_turns is
// not given.
const defaultForkTurns = 3

// childContext is the slice of this session's history a child receives (seed 002 article 7):
// nothing for fresh, the projected history for fork, the last N turns for partial. The slice
// never ends inside the current turn (its calls have no results yet) and a partial one starts
// on a clean boundary, so every call in it keeps its result.
func childContext(req *messages.SpawnAgent, history func() []llm.Message) ([]llm.Message, error) {
	switch contextMode(req.Context) {
	case messages.ContextFresh:
		return nil, nil
	case messages.ContextFork:
		return history(), nil
	case messages.ContextPartial:
		n := req.ForkTurns
		if n <= 0 {
			n = defaultForkTurns
		}
		return lastTurns(history(), n), nil
	}
	return nil, fmt.Errorf("context %q: use fresh, fork or partial", req.Context)
}

// projectedHistory is what the model sees of the history (compact boundaries and previews
// included, state blocks not), up to the last complete exchange.
func projectedHistory(items []projection.Item, idleGap time.Duration) []llm.Message {
	items = items[:pairedPrefix(items)]
	return projection.Project(projection.Input{Items: items, Now: time.Now(), IdleGap: idleGap})
}

// pairedPrefix is the length of the longest prefix of items in which every call has its
// result: it cuts off a trailing assistant message whose calls are still running.
func pairedPrefix(h []projection.Item) int {
	for i := len(h) - 1; i >= 0; i-- {
		m := h[i].Msg
		if h[i].Boundary != nil || m.Role != llm.RoleAssistant {
			continue
		}
		answered := map[string]bool{}
		for _, r := range h[i+1:] {
			if r.Boundary == nil && r.Msg.Role == llm.RoleTool {
				answered[r.Msg.ToolCallID] = true
			}
		}
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				return i
			}
		}
		return len(h)
	}
	return len(h)
}

// lastTurns keeps the last n model turns of h (an assistant message and the results of its
// calls is one turn), starting at an assistant message so no result is separated from its
// call, behind a user note that says what the slice is (some providers need a user message
// first).
func lastTurns(h []llm.Message, n int) []llm.Message {
	start, seen := 0, 0
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == llm.RoleAssistant {
			seen++
			if seen == n {
				start = i
				break
			}
		}
	}
	if seen < n {
		return h
	}
	// Take the user message that opened the first kept turn, if it directly precedes it.
	if start > 0 && h[start-1].Role == llm.RoleUser {
		start--
	}
	out := make([]llm.Message, 0, len(h)-start+1)
	if h[start].Role != llm.RoleUser {
		out = append(out, llm.Message{Role: llm.RoleUser, Content: noteText(fmt.Sprintf("The last %d turns of your parent's session follow, for context.", n))})
	}
	return append(out, h[start:]...)
}
