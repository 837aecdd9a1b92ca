package actors

import (
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// logPageBytes bounds the stored size of one page of troupe log on the bus: well under NATS's
// default 1 MiB max_payload, so a page of large tool outputs still fits in one reply (an entry
// larger than a page travels alone, by reference when it is over the bus limit).
const logPageBytes = 256 << 10

// sessionInfo is the wire form of a stored session.
func sessionInfo(m *store.SessionMeta) messages.SessionInfo {
	return messages.SessionInfo{ID: m.ID, Parent: m.Parent, Agent: m.Agent, Model: m.Model, BaseURL: m.BaseURL,
		Task: m.Task, Mode: m.Mode, Workspace: m.Workspace, Status: m.Status, Error: m.Error, Created: m.Created, Updated: m.Updated,
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
