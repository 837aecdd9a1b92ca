// Package turn holds the plain decisions of a session's turn (docs/ARCHITECTURE.md, "How a turn flows"): what a model reply is
// and what the session does next (Classifier), when the model is going round in circles
// (LoopDetector), and what the harness repaired on the way (Tally). Nothing here touches an
// actor, the bus or the disk, so each piece is tested on its own.
package turn

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// Classifier classifies model replies. Parse nil turns the recovery of calls written as text
// off (the bench's "repair off").
type Classifier struct {
	Parse TextParser
	Known func(name string) bool // whether a name is (or repairs to) one of the session's tools
	// FitArgs names the tool a bare arguments object was meant for (tools.Registry's
	// ToolFittingArgs); nil when the session cannot tell.
	FitArgs func(object string) (tools.ArgsFit, bool)
	// Split turns one call that stands for several (a list of paths, commands, edits, a patch
	// of several hunks) into those calls, in order (tools.Registry's Split); nil splits none.
	Split func(name, args string) ([]tools.Piece, bool)
	// Salvage reads, as inferred calls, the calls no format's grammar read (NewSalvager); nil
	// reads none.
	Salvage Salvager
}

// Decision is a classified reply and what to do with it.
type Decision struct {
	Class messages.ReplyClass
	// Calls are the calls to run (structured or recovered from text), in order.
	Calls []llm.ToolCall
	// Text is the assistant text to commit: the prose around recovered calls, else the reply's.
	Text string
	// Repairs has one text_format (or inferred_tool) repair per recovered call, in call order.
	Repairs []messages.ToolRepairedData
	// Inferred are the ids of calls whose tool the harness inferred from bare arguments: the
	// executor treats them as guesses (tools.Call.Inferred).
	Inferred []string
	// InsideCall says a reply cut off by the output limit stopped inside a call.
	InsideCall bool
	// Note is what the harness tells the model before the next call (malformed, reasoning
	// only, cut off); empty for the other classes.
	Note string
}

// previewBytes bounds the before/after text of a repair event.
const previewBytes = 160

// exampleCall is the call shown to a model that wrote one the harness could not read.
const exampleCall = `<tool_call>{"name": "read_file", "arguments": {"path": "README.md"}}</tool_call>`

// Classify decides what reply r of turn is.
func (c Classifier) Classify(r *llm.Reply, turn int) Decision {
	d := Decision{Text: r.Text}
	switch {
	case r.Stop == llm.StopRefusal:
		d.Class = messages.ReplyRefusal
		return d
	case r.Stop == llm.StopLength:
		return c.cutOff(r, d)
	case len(r.ToolCalls) > 0:
		d.Class, d.Calls = messages.ReplyToolCalls, r.ToolCalls
		return c.split(d, turn)
	}
	if c.Parse != nil {
		found, ok := c.textCalls(r, turn)
		if ok && len(found.Calls) > 0 {
			return c.split(found, turn)
		}
		// A reply that is only an arguments object goes to bareArguments even when a tool's
		// name in its values made it look like an attempted call ({"command": ["bash", …]}
		// in a harmony commentary message without a recipient).
		if bare, isBare := c.bareArguments(r.Text, turn); isBare {
			return bare
		}
		if salvaged, found := c.salvage(r, turn); found {
			return c.split(salvaged, turn)
		}
		if ok {
			return found
		}
	}
	switch {
	case strings.TrimSpace(r.Text) != "" && IsQuestion(r.Text):
		d.Class = messages.ReplyQuestion
	case strings.TrimSpace(r.Text) != "":
		d.Class = messages.ReplyFinal
	case strings.TrimSpace(r.Reasoning) != "":
		d.Class = messages.ReplyReasoningOnly
		d.Note = "Your last reply had reasoning but no answer and no tool call. Act on your reasoning now: call a tool, or give your final answer as text."
	default:
		d.Class = messages.ReplyEmpty
	}
	return d
}

// textCalls recovers calls written in the reply's text, or in its reasoning when the text has
// none. ok is false when neither holds an attempted call.
func (c Classifier) textCalls(r *llm.Reply, turn int) (Decision, bool) {
	p := c.Parse(r.Text, c.Known)
	prose := p.Prose
	if len(p.Calls) == 0 && !p.Partial && r.Reasoning != "" {
		p = c.Parse(r.Reasoning, c.Known)
		prose = r.Text
	}
	if len(p.Calls) == 0 {
		if !p.Partial {
			return Decision{}, false
		}
		return Decision{Class: messages.ReplyMalformed, Text: r.Text, Note: "Your last reply contained a tool call that could not be read " +
			"(the call's JSON is incomplete or invalid, or a tag is missing). Send it again as a structured tool call, or exactly in this form, " +
			"one call per block, with the arguments as a JSON object:\n" + exampleCall}, true
	}
	d := Decision{Class: messages.ReplyTextCalls, Text: prose}
	for i, tc := range p.Calls {
		id := fmt.Sprintf("txt-%d-%d", turn, i+1)
		args := string(tc.Args)
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		d.Calls = append(d.Calls, llm.ToolCall{ID: id, Name: tc.Name, Args: args})
		d.Repairs = append(d.Repairs, messages.ToolRepairedData{Turn: turn, CallID: id, Tool: tc.Name,
			Kind: string(tools.RepairTextFormat), Before: Preview(tc.Raw, previewBytes), After: Preview(tc.Name+" "+compactJSON(args), previewBytes)})
	}
	return d, true
}

// cutOff handles a reply stopped by the output limit: its text is kept and continued; a call
// it stopped inside is not a call, and the model is asked to send it again whole.
func (c Classifier) cutOff(r *llm.Reply, d Decision) Decision {
	d.Class = messages.ReplyLength
	d.InsideCall = len(r.ToolCalls) > 0
	if !d.InsideCall && c.Parse != nil {
		p := c.Parse(r.Text, c.Known)
		d.InsideCall = p.Partial || len(p.Calls) > 0
		if d.InsideCall {
			d.Text = p.Prose
		}
	}
	d.Note = "Your reply was cut off by the output limit. Continue exactly where you stopped; keep tool calls small."
	if d.InsideCall {
		d.Note = "Your reply was cut off by the output limit inside a tool call, so the call was not run. " +
			"Send the whole call again, smaller: split a large file write into a write and edits, or read less at once."
	}
	return d
}

// questionOpeners start a sentence that asks the user for something.
var questionOpeners = []string{"would you like", "do you want", "should i", "shall i", "could you", "can you",
	"which ", "what would", "please confirm", "please clarify", "let me know"}

// IsQuestion says whether a final-looking text asks the user something: it ends with a question
// mark, or its last paragraph asks for a choice or a confirmation.
func IsQuestion(text string) bool {
	t := strings.TrimSpace(text)
	if strings.HasSuffix(t, "?") {
		return true
	}
	last := t
	if i := strings.LastIndex(t, "\n\n"); i >= 0 {
		last = t[i+2:]
	}
	last = strings.ToLower(last)
	if len(last) > 400 {
		return false
	}
	for _, o := range questionOpeners {
		if strings.HasPrefix(last, o) && (strings.Contains(last, "?") || strings.HasPrefix(last, "please") || strings.HasPrefix(last, "let me know")) {
			return true
		}
	}
	return false
}

// Preview keeps the head of s within n bytes, on one line, cut at a rune boundary.
func Preview(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	return textfmt.Clip(s, n)
}

func compactJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
