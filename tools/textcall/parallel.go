package textcall

import (
	"encoding/json"
	"strings"
)

// OpenAI's parallel-call wrapper, from the function-calling section of ChatGPT's system
// prompt, which gpt-oss's harmony tool format shares (to=multi_tool_use.parallel):
//
//	{"tool_uses": [{"recipient_name": "functions.read_file", "parameters": {"path": "a.go"}}, …]}
//
// Each element is one call, in order; the recipient's functions. namespace is the harmony
// one. The wrapper arrives as a call to multi_tool_use.parallel or as the bare object.

// parallelTool is the wrapper's tool name.
const parallelTool = "multi_tool_use.parallel"

// parallelCalls reads the calls in a {"tool_uses": […]} object; nil when it holds none.
func parallelCalls(list json.RawMessage, f Format) []Call {
	var uses []map[string]json.RawMessage
	if json.Unmarshal(list, &uses) != nil {
		return nil
	}
	var calls []Call
	for _, u := range uses {
		name := strings.TrimPrefix(stringField(u, "recipient_name", "name"), "functions.")
		raw, ok := u["parameters"]
		if !ok {
			raw, ok = u["arguments"]
		}
		if !plausibleName(name) || !ok {
			return nil
		}
		calls = append(calls, Call{Name: name, Args: argsFromValue(raw), Raw: rawArgText(raw), Format: f})
	}
	return calls
}

// expandParallel replaces each call to the parallel wrapper with the calls it holds.
func expandParallel(calls []Call) []Call {
	out := calls[:0:0]
	for _, c := range calls {
		if strings.TrimPrefix(c.Name, "functions.") == parallelTool && c.Args != nil {
			var obj map[string]json.RawMessage
			if json.Unmarshal(c.Args, &obj) == nil {
				if inner := parallelCalls(obj["tool_uses"], c.Format); len(inner) > 0 {
					out = append(out, inner...)
					continue
				}
			}
		}
		out = append(out, c)
	}
	return out
}
