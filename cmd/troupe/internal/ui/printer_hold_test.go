package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// Streamed text that may be a call written as text waits for the next event: a text_format
// repair replaces it with its own line; anything else prints it as it came, whole, once.
func TestPrinterHoldsCallMarkupUntilTheRepairSettlesIt(t *testing.T) {
	env := func(typ messages.EventType, data any) []byte {
		raw, _ := json.Marshal(data)
		b, _ := json.Marshal(messages.Envelope{V: 1, Session: "s", Agent: "root", Type: typ, Data: raw})
		return b
	}
	delta := func(s string) []byte {
		return env(messages.EventTextDelta, &messages.DeltaData{Turn: 1, Text: s})
	}
	repaired := env(messages.EventToolRepaired, &messages.ToolRepairedData{Turn: 1, Kind: "text_format", Before: "hermes: x", After: "read_file {}"})
	finished := env(messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1})
	usage := env(messages.EventUsage, &messages.UsageData{Turn: 1})
	for _, c := range []struct {
		name      string
		events    [][]byte
		want      string
		wantNot   string
		wantCount string
	}{
		{"repaired", [][]byte{delta("Reading.\n<tool_c"), delta("all>{\"name\":"), delta("\"read_file\"}</tool_call>"), usage, repaired},
			"Reading.\n  ↻ repaired text format", "<tool_c", ""},
		{"no repair: printed whole", [][]byte{delta("Reading.\n<tool_c"), delta("all>{\"x\"}"), usage, finished},
			"Reading.\n<tool_call>{\"x\"}", "", "<tool_call>"},
		{"a marker's start that never completes", [][]byte{delta("if a < b then [TOOL"), delta(" is a word"), finished},
			"if a < b then [TOOL is a word", "", "[TOOL"},
		{"a repair of a structured call prints held text", [][]byte{delta("see <function="), env(messages.EventToolRepaired, &messages.ToolRepairedData{Turn: 1, Kind: "arg_alias"})},
			"see <function=", "", "<function="},
	} {
		var out strings.Builder
		p := NewPrinter(&out, false)
		for _, e := range c.events {
			p.Event(e)
		}
		got := out.String()
		if !strings.Contains(got, c.want) || (c.wantNot != "" && strings.Contains(got, c.wantNot)) ||
			(c.wantCount != "" && strings.Count(got, c.wantCount) != 1) {
			t.Errorf("%s:\n%q", c.name, got)
		}
	}
}

// The full-screen transcript keeps the prose of an answer whose call was read from its text;
// the call shows as its tool entry, not as the markup it streamed in.
func TestTranscriptDropsTheMarkupOfARepairedTextCall(t *testing.T) {
	tr := newTranscript()
	tr.apply(messages.EventTextDelta, &messages.DeltaData{Turn: 1, Text: "Let me read it.\n<function=read_file>"})
	tr.apply(messages.EventTextDelta, &messages.DeltaData{Turn: 1, Text: "<parameter=path>a.txt</parameter></function>"})
	tr.apply(messages.EventToolRepaired, &messages.ToolRepairedData{Turn: 1, Kind: "text_format"})
	tr.apply(messages.EventToolStarted, &messages.ToolCallData{Turn: 1, CallID: "c1", Tool: "read_file", Summary: "read_file a.txt"})
	if len(tr.entries) != 2 || tr.entries[0].text != "Let me read it." || tr.entries[1].summary != "read_file a.txt" {
		for _, e := range tr.entries {
			t.Logf("%v %q %q", e.kind, e.text, e.summary)
		}
		t.Fatal("want the prose, then the call's entry")
	}
}
