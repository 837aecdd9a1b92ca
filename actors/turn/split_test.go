package turn

import (
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// A call standing for several becomes those calls in order, structured or written as text,
// each with its own id, the call's own repairs and a split_call repair; other calls are kept.
func TestClassifySplitsListShapedCalls(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	c := Classifier{Parse: parse, Known: reg.Knows, Split: reg.Split}
	structured := llm.Reply{Stop: llm.StopToolCalls, ToolCalls: []llm.ToolCall{
		{ID: "c1", Name: "read_multiple_files", Args: `{"paths": ["a.go", "b.go"]}`},
		{ID: "c2", Name: "bash", Args: `{"command": "ls"}`},
	}}
	d := c.Classify(&structured, 3)
	want := []llm.ToolCall{
		{ID: "c1-1", Name: "read_file", Args: `{"path":"a.go"}`},
		{ID: "c1-2", Name: "read_file", Args: `{"path":"b.go"}`},
		{ID: "c2", Name: "bash", Args: `{"command": "ls"}`},
	}
	if d.Class != messages.ReplyToolCalls || len(d.Calls) != len(want) {
		t.Fatalf("got %s %+v, want %+v", d.Class, d.Calls, want)
	}
	for i := range want {
		if d.Calls[i] != want[i] {
			t.Errorf("call %d = %+v, want %+v", i+1, d.Calls[i], want[i])
		}
	}
	if len(d.Repairs) != 2 || d.Repairs[0].Kind != string(tools.RepairSplitCall) || d.Repairs[1].CallID != "c1-2" {
		t.Errorf("repairs %+v, want one split_call per piece", d.Repairs)
	}

	text := llm.Reply{Stop: llm.StopEnd, Text: `<tool_call>{"name": "MultiEdit", "arguments": {"file_path": "a.go", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d"}]}}</tool_call>`}
	d = c.Classify(&text, 4)
	if d.Class != messages.ReplyTextCalls || len(d.Calls) != 2 || d.Calls[0].ID != "txt-4-1-1" || d.Calls[1].Name != "edit_file" {
		t.Fatalf("got %s %+v", d.Class, d.Calls)
	}
	kinds := map[string]int{}
	for _, r := range d.Repairs {
		kinds[r.Kind]++
	}
	if kinds[string(tools.RepairTextFormat)] != 2 || kinds[string(tools.RepairSplitCall)] != 2 {
		t.Errorf("repairs %+v, want text_format and split_call for each piece", d.Repairs)
	}

	c.Split = nil // repair off: nothing is split
	if d := c.Classify(&structured, 5); len(d.Calls) != 2 {
		t.Errorf("without Split the calls changed: %+v", d.Calls)
	}
}
