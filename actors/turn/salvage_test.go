package turn

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// salvager knows known's tools, and fits a command to bash and a path to read_file.
var salvager = NewSalvager(known, func(name, args string) (int, bool) {
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) != nil {
		return 0, false
	}
	need := map[string]string{"bash": "command", "read_file": "path"}[name]
	if _, ok := obj[need]; !ok || len(obj) != 1 {
		return 0, false
	}
	return 1, true
})

// mangled is a call no format's grammar reads: GLM's attributes with quotes left unescaped
// between stray closing tags.
const mangled = `</think><tool_call>bash command="grep -n "TODO" a.go | head"</think>`

// TestSalvagedCallsAreInferred checks the salvage pass's calls run as inferred calls (the gate
// asks before any of them does more than read), with a text_format repair naming the pass.
func TestSalvagedCallsAreInferred(t *testing.T) {
	c := Classifier{Parse: parse, Known: known, Salvage: salvager}
	d := c.Classify(&llm.Reply{Text: "Searching.\n" + mangled, Stop: llm.StopEnd}, 3)
	if d.Class != messages.ReplyTextCalls || len(d.Calls) != 1 || d.Calls[0].Name != "bash" || d.Calls[0].Args != `{"command":"grep -n \"TODO\" a.go | head"}` {
		t.Fatalf("decision = %+v", d)
	}
	if !slices.Equal(d.Inferred, []string{"txt-3-1"}) || d.Text != "Searching." {
		t.Fatalf("inferred %v, prose %q", d.Inferred, d.Text)
	}
	if len(d.Repairs) != 1 || d.Repairs[0].Kind != "text_format" || !strings.HasPrefix(d.Repairs[0].Before, "salvage: bash") {
		t.Fatalf("repairs = %+v", d.Repairs)
	}
}

// TestSalvageReadsReasoningWhenTheTextHasNone checks the pass looks in the reasoning when the
// answer holds no call, keeping the answer as the text.
func TestSalvageReadsReasoningWhenTheTextHasNone(t *testing.T) {
	c := Classifier{Parse: parse, Known: known, Salvage: salvager}
	d := c.Classify(&llm.Reply{Text: "One moment.", Reasoning: "Look for the TODOs." + mangled, Stop: llm.StopEnd}, 1)
	if d.Class != messages.ReplyTextCalls || len(d.Calls) != 1 || d.Text != "One moment." || len(d.Inferred) != 1 {
		t.Fatalf("decision = %+v", d)
	}
}

// TestSalvageLeavesProseAndGrammarsAlone checks prose naming a tool stays a final answer, and
// a call a grammar reads is not the pass's (not inferred).
func TestSalvageLeavesProseAndGrammarsAlone(t *testing.T) {
	c := Classifier{Parse: parse, Known: known, Salvage: salvager}
	if d := c.Classify(&llm.Reply{Text: `For example, call bash with {"command": "ls"}.`, Stop: llm.StopEnd}, 1); d.Class != messages.ReplyFinal {
		t.Fatalf("prose classified %s", d.Class)
	}
	d := c.Classify(&llm.Reply{Text: `<tool_call>{"name":"read_file","arguments":{"path":"a"}}</tool_call>`, Stop: llm.StopEnd}, 1)
	if d.Class != messages.ReplyTextCalls || len(d.Inferred) != 0 {
		t.Fatalf("decision = %+v", d)
	}
}
