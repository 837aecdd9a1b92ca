package textcall

import "strings"

// Liquid LFM2 / LFM2.5, from LiquidAI's chat template and vLLM's lfm2 tool parser: a Python
// list of calls between two special tokens (JSON when the system prompt asks for it):
//
//	<|tool_call_start|>[read_file(path="a.go"), list_dir(path=".")]<|tool_call_end|>
//
// Reported leaking into content: LM Studio (lmstudio-bug-tracker#1979), little-coder#42.

const (
	lfmStart = "<|tool_call_start|>"
	lfmEnd   = "<|tool_call_end|>"
)

func scanLFM(text string, sc scanCtx) []span {
	return scanTagged(text, lfmStart, lfmEnd, func(body string) ([]Call, bool) { return lfmBody(body, sc) })
}

// lfmBody reads the calls between the tokens: a JSON object or array of objects, or Python
// calls (with or without the list brackets). Inside the tokens every name counts as a call.
func lfmBody(body string, sc scanCtx) ([]Call, bool) {
	t := strings.TrimSpace(body)
	if t == "" {
		return nil, false
	}
	if t[0] == '{' || t[0] == '[' && strings.HasPrefix(strings.TrimSpace(t[1:]), "{") {
		calls, complete := jsonSequence(t, FormatLFM)
		return calls, complete
	}
	return pythonCallsInMarker(t, sc, FormatLFM)
}
