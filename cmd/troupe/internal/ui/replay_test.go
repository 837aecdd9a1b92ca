package ui

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// Attach replays the stored log, then prints the events that came in meanwhile and live ones,
// leaving out what the log already showed: nothing twice, nothing lost.
func TestAttachReplayThenLive(t *testing.T) {
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	entries := []messages.LogEntry{
		{Seq: 1, Kind: messages.LogUser, Time: at(0), Text: "read a.txt, then test"},
		{Seq: 2, Kind: messages.LogAssistant, Time: at(1000), Text: "Let me read it.",
			Calls: []messages.LogCall{{ID: "c1", Name: "read_file", Args: `{"path": "a.txt"}`}}},
		{Seq: 3, Kind: messages.LogToolResult, Time: at(1020), CallID: "c1", ToolName: "read_file", Text: "     1\talpha\n"},
		{Seq: 4, Kind: messages.LogAssistant, Time: at(2000), Text: "Now the tests.",
			Calls: []messages.LogCall{{ID: "c2", Name: "bash", Args: `{"command": "rm -rf /"}`}, {ID: "c3", Name: "bash", Args: `{"command": "go test ./..."}`}}},
		{Seq: 5, Kind: messages.LogSystem, Time: at(2001), Event: "tool.rejected", CallID: "c2", ToolName: "bash",
			Data: json.RawMessage(`{"decision": "denied", "reason": "denied by pattern bash(rm -rf *)"}`)},
		{Seq: 6, Kind: messages.LogToolResult, Time: at(2002), CallID: "c2", ToolName: "bash", IsError: true, Text: "denied by pattern bash(rm -rf *)"},
		// c3 runs while attach reads the log: its result is not stored yet.
	}
	session := "20250301-120100-aaaaaa"
	// Events that arrived between the subscription and the log read, then live ones.
	held := newEvs().
		at(1.9, session, messages.EventTextDelta, &messages.DeltaData{Turn: 2, Text: "Now the tests."}).
		at(2.001, session, messages.EventToolRejected, &messages.DecisionData{CallID: "c2", Decision: messages.DecisionDenied, Reason: "denied by pattern bash(rm -rf *)"}).
		at(2.002, session, messages.EventToolFinished, &messages.ToolFinishedData{CallID: "c2", IsError: true, Output: "denied by pattern", Bytes: 17}).
		at(2.003, session, messages.EventToolStarted, &messages.ToolCallData{CallID: "c3", Tool: "bash", Summary: "bash go test ./..."})
	live := newEvs().
		at(3, session, messages.EventToolFinished, &messages.ToolFinishedData{CallID: "c3", Output: "ok  \tdemo\t0.01s", Bytes: 15, DurationMS: 900}).
		at(3.5, session, messages.EventTextDelta, &messages.DeltaData{Turn: 3, Text: "Tests pass."}).
		at(4, session, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "done", Final: "Tests pass.", Turns: 3})

	var out bytes.Buffer
	f := NewFollower(NewPrinter(&out, false), false)
	for _, env := range held.list {
		data, _ := json.Marshal(env)
		f.Event(data)
	}
	f.GoLive(ReplayLog(&out, entries))
	for _, env := range live.list {
		data, _ := json.Marshal(env)
		f.Event(data)
	}
	want := "Let me read it.\n" +
		"→ read_file a.txt\n" +
		"  ✓ 1 line (13 bytes, 20ms)\n" +
		"Now the tests.\n" +
		"→ bash rm -rf /\n" +
		"  ⊘ denied by pattern bash(rm -rf *)\n" +
		"  ✗ denied by pattern bash(rm -rf *) (32 bytes, 1ms)\n" +
		"→ bash go test ./...\n" +
		"  ✓ ok  \tdemo\t0.01s (15 bytes, 900ms)\n" +
		"Tests pass.\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	select {
	case fin := <-f.finished:
		if fin.Status != "done" {
			t.Errorf("finished %+v", fin)
		}
	default:
		t.Error("session.finished was not passed on")
	}
}
