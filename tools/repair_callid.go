package tools

import (
	"fmt"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// A call whose name is a call id: the model wrote the id where the tool's name belongs (Kimi's
// tool-call section with call_0 … call_3 in place of functions.Read:0, openclaude#1508). The
// id names no tool, so the arguments decide, as for a reply of bare arguments: the one tool
// they fit with the margin (ToolFittingArgs' Certain), and the call is marked inferred, so
// outside yolo mode the gate asks before it does anything but read. Below the margin the
// call is refused with the reason.

// callIDName is an id in the spellings the providers document for tool calls: OpenAI's
// call_…, Anthropic's toolu_…, vLLM's chatcmpl-tool-…, the Responses API's fc_…, and the
// numbered call_0 / tool_call_0 of templates that number calls. A bare id suffix must hold a
// digit, so a real tool named call_home or fc_lookup is never read as an id.
var callIDName = lazyre.New(`^(?:call|toolu|tool_call|fc|chatcmpl-tool)[_-](?:[0-9]{1,6}|[A-Za-z0-9]*[0-9][A-Za-z0-9]*)$`)

// resolveCallID maps a call named by a call id to the one tool its arguments fit. ok is false
// when name is no call id (the caller goes on) or when no tool fits with the margin (then the
// resolution carries the refusal). Empty arguments (Knows asking about the bare name) fit
// nothing and refuse nothing: an id alone is not a tool the session knows.
func (r *Registry) resolveCallID(name, args string) (res resolution, isID, ok bool) {
	if len(name) > 64 || !callIDName.MatchString(name) {
		return resolution{}, false, false
	}
	parsed, _, err := parseArgs(args)
	if err != nil || args == "" {
		return resolution{}, true, false
	}
	fit, found := r.ToolFittingArgs(string(parsed))
	if !found || !fit.Certain {
		return resolution{refusal: fmt.Sprintf("%q is a call id, not a tool name, and its arguments fit no one tool: call the tool you meant by name", name)}, true, false
	}
	res = r.renamed(name, fit.Tool, fit.Object)
	res.repairs[0].Kind = RepairInferredTool
	res.inferred = true
	return res, true, true
}
