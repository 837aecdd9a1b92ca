package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/troupe-dev/troupe/messages"
)

func TestRunViewShowsProgressThenRendersTheAnswer(t *testing.T) {
	var out, status strings.Builder
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	v := NewRunView(RunViewOptions{Out: &out, Status: &status, Width: 60, NoColor: true, Now: func() time.Time { return now }})
	seq := uint64(0)
	ev := func(typ messages.EventType, data any) *messages.SessionFinishedData {
		t.Helper()
		raw, _ := json.Marshal(data)
		seq++
		env, _ := json.Marshal(&messages.Envelope{V: 1, Seq: seq, Session: "s", Type: typ, Data: raw})
		return v.Event(env)
	}
	lastStatus := func() string {
		s := status.String()
		return s[strings.LastIndex(s, "\r\x1b[K")+len("\r\x1b[K"):]
	}

	ev(messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1})
	now = now.Add(1500 * time.Millisecond)
	v.Tick()
	if got := lastStatus(); !strings.Contains(got, "thinking… 1.5s") || !strings.Contains(got, "0 in / 0 out tokens") {
		t.Errorf("spinner while thinking: %q", got)
	}
	ev(messages.EventTextDelta, &messages.DeltaData{Turn: 1, Text: "Let me **look**."})
	ev(messages.EventUsage, &messages.UsageData{TotalInputTokens: 2100, TotalOutputTokens: 12})
	ev(messages.EventToolStarted, &messages.ToolCallData{Turn: 1, CallID: "c1", Tool: "bash", Summary: "bash go test ./..."})
	if got := lastStatus(); !strings.Contains(got, "bash go test ./...…") || !strings.Contains(got, "2.1k in / 12 out tokens") {
		t.Errorf("spinner while a tool runs: %q", got)
	}
	if !strings.Contains(ansi.Strip(out.String()), "Let me look.\n→ bash go test ./...") {
		t.Errorf("the text before the call is not rendered before it:\n%s", out.String())
	}
	ev(messages.EventToolFinished, &messages.ToolFinishedData{Turn: 1, CallID: "c1", Tool: "bash", Output: "ok\n", Bytes: 3, DurationMS: 40})
	ev(messages.EventTurnStarted, &messages.TurnStartedData{Turn: 2})
	ev(messages.EventTextDelta, &messages.DeltaData{Turn: 2, Text: "# Done\n\n- one `item`\n- two\n"})
	v.Tick() // a delta only changes what the next tick says
	if got := lastStatus(); !strings.Contains(got, "writing the answer…") {
		t.Errorf("spinner while the answer streams: %q", got)
	}
	if strings.Contains(out.String(), "Done") {
		t.Error("the answer printed before its turn ended (it is rendered whole)")
	}
	ev(messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 2, Stop: "end"})
	fin := ev(messages.EventSessionFinished, &messages.SessionFinishedData{Status: messages.StatusDone, Final: "x"})
	if fin == nil || fin.Status != messages.StatusDone {
		t.Fatalf("the outcome = %+v", fin)
	}
	got := ansi.Strip(out.String())
	if !strings.Contains(got, "• one item") || strings.Contains(got, "`item`") || strings.Contains(got, "**") {
		t.Errorf("the answer is not rendered markdown:\n%s", got)
	}
	if !strings.HasSuffix(status.String(), "\r\x1b[K") {
		t.Errorf("the spinner line stays after the end: %q", status.String())
	}
	for _, line := range strings.Split(status.String(), "\r\x1b[K") {
		if len([]rune(line)) > 59 {
			t.Errorf("a spinner line wider than the terminal: %q", line)
		}
	}
}

func TestRunViewWithoutAStatusTerminalDrawsNoSpinner(t *testing.T) {
	var out strings.Builder
	v := NewRunView(RunViewOptions{Out: &out, NoColor: true})
	v.Tick()
	raw, _ := json.Marshal(&messages.ToolCallData{CallID: "c", Tool: "bash", Summary: "bash ls"})
	env, _ := json.Marshal(&messages.Envelope{V: 1, Seq: 1, Session: "s", Type: messages.EventToolStarted, Data: raw})
	v.Event(env)
	if strings.Contains(out.String(), "\x1b[K") || out.String() != "→ bash ls\n" {
		t.Fatalf("out = %q", out.String())
	}
	above := v.Above(&out)
	above.Write([]byte("troupe: cancelling\n"))
	if !strings.HasSuffix(out.String(), "troupe: cancelling\n") {
		t.Fatalf("out = %q", out.String())
	}
}

// A call written as text shows as its repair line after the prose before it, not as raw markup.
func TestRunViewShowsARepairedTextCallAsItsLine(t *testing.T) {
	var out strings.Builder
	v := NewRunView(RunViewOptions{Out: &out, Width: 60, NoColor: true, Now: time.Now})
	ev := func(typ messages.EventType, data any) {
		raw, _ := json.Marshal(data)
		env, _ := json.Marshal(&messages.Envelope{V: 1, Session: "s", Type: typ, Data: raw})
		v.Event(env)
	}
	ev(messages.EventTextDelta, &messages.DeltaData{Turn: 1, Text: "Let me read it.\n<tool_call>{\"name\": \"read_file\"}</tool_call>"})
	ev(messages.EventToolRepaired, &messages.ToolRepairedData{Turn: 1, Kind: "text_format", Before: "hermes: read_file", After: "read_file {}"})
	ev(messages.EventToolStarted, &messages.ToolCallData{Turn: 1, CallID: "c1", Tool: "read_file", Summary: "read_file a.txt"})
	got := ansi.Strip(out.String())
	if !strings.Contains(got, "Let me read it.\n  ↻ repaired text format") || strings.Contains(got, "<tool_call>{") {
		t.Errorf("want the prose, then the repair line, and no markup:\n%s", got)
	}
}

// Plain (the answer piped, stderr a terminal): the text streams plain as the Printer's, never
// as markdown, and the spinner still says what runs.
func TestRunViewPlainStreamsTextAndDrawsTheSpinner(t *testing.T) {
	var out, status strings.Builder
	v := NewRunView(RunViewOptions{Out: &out, Status: &status, Width: 60, Plain: true, Now: time.Now})
	ev := func(typ messages.EventType, data any) {
		raw, _ := json.Marshal(data)
		env, _ := json.Marshal(&messages.Envelope{V: 1, Session: "s", Type: typ, Data: raw})
		v.Event(env)
	}
	ev(messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1})
	v.Tick()
	if !strings.Contains(status.String(), "thinking…") {
		t.Errorf("no spinner while the model thinks: %q", status.String())
	}
	ev(messages.EventTextDelta, &messages.DeltaData{Turn: 1, Text: "# Plan\n**bold**"})
	if out.String() != "# Plan\n**bold**" {
		t.Errorf("the text is not streamed as it came: %q", out.String())
	}
	ev(messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1, Stop: "end"})
	if strings.Count(out.String(), "Plan") != 1 || strings.Contains(out.String(), "\x1b") {
		t.Errorf("plain output must hold the text once, with no escapes: %q", out.String())
	}
}
