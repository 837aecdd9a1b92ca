package turn

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/textcall"
)

// Salvager reads the calls no format's grammar read (textcall.Salvage): known tool names next
// to a payload that fits the tool's schema.
type Salvager func(text string) Parsed

// NewSalvager is the session's salvage pass: known says whether a name is (or repairs to) one
// of its tools, fit whether arguments make a call it would admit (tools.Registry's Knows and
// FitCall).
func NewSalvager(known func(string) bool, fit func(name, args string) (int, bool)) Salvager {
	return func(text string) Parsed {
		r := textcall.Salvage(text, textcall.SalvageOptions{Known: known, Fit: fit})
		out := Parsed{Prose: r.Prose}
		for _, c := range r.Calls {
			args := c.Args
			if args == nil {
				args = []byte(strings.TrimSpace(c.Raw))
			}
			out.Calls = append(out.Calls, TextCall{Name: c.Name, Args: args, Format: string(c.Format),
				Raw: string(c.Format) + ": " + c.Name + " " + c.Raw})
		}
		return out
	}
}

// salvage is the last resort for a reply in which no grammar found a call: the calls the
// salvage pass reads in its text, else in its reasoning. They are inferred calls: outside yolo
// mode the gate asks before any of them does more than read.
func (c Classifier) salvage(r *llm.Reply, turn int) (Decision, bool) {
	if c.Salvage == nil {
		return Decision{}, false
	}
	p := c.Salvage(r.Text)
	prose := p.Prose
	if len(p.Calls) == 0 && r.Reasoning != "" {
		p = c.Salvage(r.Reasoning)
		prose = r.Text
	}
	if len(p.Calls) == 0 {
		return Decision{}, false
	}
	d := Decision{Class: messages.ReplyTextCalls, Text: prose}
	for i, tc := range p.Calls {
		id := fmt.Sprintf("txt-%d-%d", turn, i+1)
		args := string(tc.Args)
		d.Calls = append(d.Calls, llm.ToolCall{ID: id, Name: tc.Name, Args: args})
		d.Inferred = append(d.Inferred, id)
		d.Repairs = append(d.Repairs, messages.ToolRepairedData{Turn: turn, CallID: id, Tool: tc.Name,
			Kind: string(tools.RepairTextFormat), Before: Preview(tc.Raw, previewBytes), After: Preview(tc.Name+" "+compactJSON(args), previewBytes)})
	}
	return d, true
}
