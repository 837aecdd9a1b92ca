package actors

import (
	"encoding/json"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// logPageBytes bounds one page of troupe log on the bus: well under NATS's default 1 MiB
// max_payload, so a page of large tool outputs still fits in one reply.
const logPageBytes = 256 << 10

// sessionInfo is the wire form of a stored session.
func sessionInfo(m *store.SessionMeta) messages.SessionInfo {
	return messages.SessionInfo{ID: m.ID, Parent: m.Parent, Agent: m.Agent, Model: m.Model, BaseURL: m.BaseURL,
		Task: m.Task, Mode: m.Mode, Workspace: m.Workspace, Status: m.Status, Created: m.Created, Updated: m.Updated,
		Turns: m.Turns, InputTokens: m.InputTokens, OutputTokens: m.OutputTokens}
}

// logEntry is the wire form of a stored log entry.
func logEntry(e *store.Entry) messages.LogEntry {
	out := messages.LogEntry{Seq: e.Seq, Kind: messages.LogKind(e.Kind), Time: e.Time, Text: e.Text, Reasoning: e.Reasoning,
		Model: e.Model, CallID: e.CallID, ToolName: e.ToolName, IsError: e.IsError, Event: e.Event, Data: e.Data}
	for _, c := range e.Calls {
		out.Calls = append(out.Calls, messages.LogCall{ID: c.ID, Name: c.Name, Args: c.Args})
	}
	return out
}

// logPage is the page of entries that fits logPageBytes (always at least one entry, so a
// single huge entry still makes progress: entries are bounded by the store's value size),
// and whether more follow.
func logPage(entries []*store.Entry) (page []messages.LogEntry, more bool) {
	size := 0
	for i, e := range entries {
		w := logEntry(e)
		n := approxSize(&w)
		if i > 0 && size+n > logPageBytes {
			return page, true
		}
		size += n
		page = append(page, w)
	}
	return page, false
}

// approxSize is the encoded size of a wire entry, near enough to page by.
func approxSize(e *messages.LogEntry) int {
	n := 200 + len(e.Text) + len(e.Reasoning) + len(e.Data)
	for _, c := range e.Calls {
		n += 60 + len(c.Name) + len(c.Args)
	}
	if n > 4096 { // JSON escaping can grow text; measure the big ones exactly
		if data, err := json.Marshal(e); err == nil {
			n = len(data)
		}
	}
	return n
}
