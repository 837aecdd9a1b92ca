package turn

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

var parse = Textcall("")

func known(name string) bool {
	return name == "read_file" || name == "write_file" || name == "edit_file" || name == "bash"
}

func TestClassifyEachClass(t *testing.T) {
	c := Classifier{Parse: parse, Known: known}
	structured := []llm.ToolCall{{ID: "c1", Name: "read_file", Args: `{"path":"a"}`}}
	cases := []struct {
		name  string
		reply llm.Reply
		want  messages.ReplyClass
	}{
		{"final", llm.Reply{Text: "Done: the tests pass.", Stop: llm.StopEnd}, messages.ReplyFinal},
		{"structured calls", llm.Reply{ToolCalls: structured, Stop: llm.StopToolCalls}, messages.ReplyToolCalls},
		{"text calls", llm.Reply{Text: `<tool_call>{"name":"read_file","arguments":{"path":"a"}}</tool_call>`, Stop: llm.StopEnd}, messages.ReplyTextCalls},
		{"malformed", llm.Reply{Text: `<tool_call>please run read_file on a.go</tool_call>`, Stop: llm.StopEnd}, messages.ReplyMalformed},
		{"unreadable arguments go to the tool layer", llm.Reply{Text: `<tool_call>{"name":"read_file","arguments":{"path":</tool_call>`, Stop: llm.StopEnd}, messages.ReplyTextCalls},
		{"a JSON answer naming no tool is final", llm.Reply{Text: "Your package.json:\n{\"name\": \"web\", \"version\": \"1.0.0\"}", Stop: llm.StopEnd}, messages.ReplyFinal},
		{"empty", llm.Reply{Text: "  \n", Stop: llm.StopEnd}, messages.ReplyEmpty},
		{"length", llm.Reply{Text: "Here is the first half", Stop: llm.StopLength}, messages.ReplyLength},
		{"reasoning only", llm.Reply{Reasoning: "I should read a first.", Stop: llm.StopEnd}, messages.ReplyReasoningOnly},
		{"refusal", llm.Reply{Text: "I can't help with that.", Stop: llm.StopRefusal}, messages.ReplyRefusal},
		{"question", llm.Reply{Text: "I found two configs.\n\nWhich one should I change, dev or prod?", Stop: llm.StopEnd}, messages.ReplyQuestion},
		{"prose naming a tool is final", llm.Reply{Text: "I used read_file on a.go and bash to run the tests; all pass.", Stop: llm.StopEnd}, messages.ReplyFinal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Classify(&tc.reply, 1).Class; got != tc.want {
				t.Fatalf("class = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestTextCallsBecomeStructuredCallsWithProse(t *testing.T) {
	c := Classifier{Parse: parse, Known: known}
	r := &llm.Reply{Text: "Reading both.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>\n" +
		"<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"go test ./...\"}}</tool_call>", Stop: llm.StopEnd}
	d := c.Classify(r, 7)
	if d.Class != messages.ReplyTextCalls || len(d.Calls) != 2 {
		t.Fatalf("decision = %+v, want two text calls", d)
	}
	if d.Calls[0].ID != "txt-7-1" || d.Calls[1].ID != "txt-7-2" || d.Calls[1].Name != "bash" {
		t.Fatalf("calls = %+v", d.Calls)
	}
	var args map[string]string
	if err := json.Unmarshal([]byte(d.Calls[0].Args), &args); err != nil || args["path"] != "a.go" {
		t.Fatalf("args = %s (%v)", d.Calls[0].Args, err)
	}
	if d.Text != "Reading both." {
		t.Fatalf("prose = %q, want the text around the calls", d.Text)
	}
	if len(d.Repairs) != 2 || d.Repairs[0].Kind != "text_format" || d.Repairs[0].CallID != "txt-7-1" ||
		!strings.Contains(d.Repairs[0].Before, "hermes: read_file") || d.Repairs[0].After != `read_file {"path":"a.go"}` {
		t.Fatalf("repairs = %+v", d.Repairs)
	}
}

func TestCallsInReasoningCountWhenTheTextHasNone(t *testing.T) {
	c := Classifier{Parse: parse, Known: known}
	r := &llm.Reply{Text: "Let me look.", Reasoning: `I'll read it. <tool_call>{"name":"read_file","arguments":{"path":"x"}}</tool_call>`, Stop: llm.StopEnd}
	d := c.Classify(r, 2)
	if d.Class != messages.ReplyTextCalls || len(d.Calls) != 1 || d.Text != "Let me look." {
		t.Fatalf("decision = %+v", d)
	}
}

func TestRepairOffLeavesTextCallsAsText(t *testing.T) {
	c := Classifier{Known: known} // no parser: repair is off
	r := &llm.Reply{Text: `<tool_call>{"name":"read_file","arguments":{"path":"a"}}</tool_call>`, Stop: llm.StopEnd}
	if d := c.Classify(r, 1); d.Class != messages.ReplyFinal || len(d.Calls) != 0 {
		t.Fatalf("decision = %+v, want a final answer", d)
	}
}

func TestCutOffInsideACallAsksForTheWholeCall(t *testing.T) {
	c := Classifier{Parse: parse, Known: known}
	text := &llm.Reply{Text: "Writing it.\n<tool_call>{\"name\":\"write_file\",\"arguments\":{\"path\":\"big.go\",\"content\":\"package", Stop: llm.StopLength}
	d := c.Classify(text, 1)
	if d.Class != messages.ReplyLength || !d.InsideCall || !strings.Contains(d.Note, "Send the whole call again") || d.Text != "Writing it." {
		t.Fatalf("decision = %+v", d)
	}
	structured := &llm.Reply{ToolCalls: []llm.ToolCall{{ID: "c", Name: "write_file", Args: `{"path":"a","content":"x`}}, Stop: llm.StopLength}
	if d := c.Classify(structured, 1); d.Class != messages.ReplyLength || !d.InsideCall || len(d.Calls) != 0 {
		t.Fatalf("structured cut-off decision = %+v", d)
	}
	plain := &llm.Reply{Text: "a long explanation", Stop: llm.StopLength}
	if d := c.Classify(plain, 1); d.InsideCall || !strings.Contains(d.Note, "Continue exactly where you stopped") {
		t.Fatalf("plain cut-off decision = %+v", d)
	}
}

func TestMalformedNoteShowsAnExample(t *testing.T) {
	c := Classifier{Parse: parse, Known: known}
	d := c.Classify(&llm.Reply{Text: "<tool_call>read_file a.go</tool_call>", Stop: llm.StopEnd}, 1)
	if d.Class != messages.ReplyMalformed || !strings.Contains(d.Note, exampleCall) {
		t.Fatalf("decision = %+v", d)
	}
}

func TestIsQuestion(t *testing.T) {
	for text, want := range map[string]bool{
		"Should I also update the docs?":                      true,
		"Done.\n\nWould you like me to open a PR? I can.":     true,
		"Please confirm the target branch before I push.":     true,
		"All 12 tests pass. The fix is in parse.go line 40.":  false,
		"What was wrong: the loop ran once too often. Fixed.": false,
	} {
		if got := IsQuestion(text); got != want {
			t.Errorf("IsQuestion(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestEveryFamilyFormatIsRecovered(t *testing.T) {
	c := Classifier{Parse: parse, Known: known}
	for name, text := range map[string]string{
		"qwen3-coder": "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>",
		"fenced json": "Next:\n```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n```",
		"mistral":     `[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a.go"}}]`,
		"python":      `read_file(path="a.go")`,
	} {
		d := c.Classify(&llm.Reply{Text: text, Stop: llm.StopEnd}, 1)
		if d.Class != messages.ReplyTextCalls || len(d.Calls) != 1 || d.Calls[0].Name != "read_file" || !strings.Contains(d.Calls[0].Args, "a.go") {
			t.Errorf("%s: %+v", name, d)
		}
	}
}

func FuzzClassify(f *testing.F) {
	f.Add("<tool_call>{\"name\":\"bash\",\"arguments\":{\"command\":\"ls\"}}</tool_call>", "", false)
	f.Add("Which one?", "", false)
	f.Add("", "thinking <function=read_file>", true)
	f.Fuzz(func(t *testing.T, text, reasoning string, cut bool) {
		r := &llm.Reply{Text: text, Reasoning: reasoning, Stop: llm.StopEnd}
		if cut {
			r.Stop = llm.StopLength
		}
		d := Classifier{Parse: parse, Known: known}.Classify(r, 3)
		if d.Class == "" {
			t.Fatal("no class")
		}
		for i, c := range d.Calls {
			if c.Name == "" || c.ID != fmt.Sprintf("txt-3-%d", i+1) || c.Args == "" {
				t.Fatalf("call %d: %+v", i, c)
			}
		}
		if (d.Class == messages.ReplyTextCalls) != (len(d.Calls) > 0) {
			t.Fatalf("class %s with %d calls", d.Class, len(d.Calls))
		}
	})
}
