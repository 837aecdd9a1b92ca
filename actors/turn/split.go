package turn

import (
	"fmt"
	"slices"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// split replaces each call of d that stands for several (tools.Registry.Split) with those
// calls, in order. Each piece gets the call's id with its index ("call_1-2"), keeps the
// call's own repairs (text_format) and adds a split_call repair naming what it came from;
// a piece of an inferred call stays inferred.
func (c Classifier) split(d Decision, turn int) Decision {
	if c.Split == nil {
		return d
	}
	var calls []llm.ToolCall
	var repairs []messages.ToolRepairedData
	var inferred []string
	for _, call := range d.Calls {
		own := repairsOf(d.Repairs, call.ID)
		pieces, ok := c.Split(call.Name, call.Args)
		if !ok {
			calls, repairs = append(calls, call), append(repairs, own...)
			if slices.Contains(d.Inferred, call.ID) {
				inferred = append(inferred, call.ID)
			}
			continue
		}
		before := Preview(call.Name+" "+compactJSON(call.Args), previewBytes)
		for i, p := range pieces {
			id := fmt.Sprintf("%s-%d", call.ID, i+1)
			calls = append(calls, llm.ToolCall{ID: id, Name: p.Name, Args: p.Args})
			for _, r := range own {
				r.CallID, r.Tool = id, p.Name
				repairs = append(repairs, r)
			}
			repairs = append(repairs, messages.ToolRepairedData{Turn: turn, CallID: id, Tool: p.Name, Kind: string(tools.RepairSplitCall),
				Before: before, After: Preview(fmt.Sprintf("%d of %d: %s %s", i+1, len(pieces), p.Name, compactJSON(p.Args)), previewBytes)})
			if slices.Contains(d.Inferred, call.ID) {
				inferred = append(inferred, id)
			}
		}
	}
	d.Calls, d.Repairs, d.Inferred = calls, repairs, inferred
	return d
}

// repairsOf is the repairs recorded for call id.
func repairsOf(all []messages.ToolRepairedData, id string) []messages.ToolRepairedData {
	var out []messages.ToolRepairedData
	for _, r := range all {
		if r.CallID == id {
			out = append(out, r)
		}
	}
	return out
}
