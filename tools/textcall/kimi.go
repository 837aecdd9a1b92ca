package textcall

import "strings"

// Kimi K2, from moonshotai/Kimi-K2-Instruct's tool-call guidance and vLLM's kimi_k2 parser:
//
//	<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path":"a.go"}<|tool_call_end|><|tool_calls_section_end|>
//
// The call id is functions.NAME:INDEX; the namespace and index are stripped.

const (
	kimiCallBegin = "<|tool_call_begin|>"
	kimiCallEnd   = "<|tool_call_end|>"
	kimiArgBegin  = "<|tool_call_argument_begin|>"
)

var kimiWrapTokens = []string{"<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"}

func scanKimi(text string, sc scanCtx) []span {
	calls := scanTagged(text, kimiCallBegin, kimiCallEnd, kimiBody)
	calls = mergeFree(calls, scanOrphans(text, kimiArgBegin, kimiCallEnd, kimiBody))
	return callsOrNothing(calls, tokenSpans(text, kimiWrapTokens...))
}

// kimiBody reads "functions.NAME:0<|tool_call_argument_begin|>{…}".
func kimiBody(body string) ([]Call, bool) {
	id, args, ok := strings.Cut(body, kimiArgBegin)
	if !ok {
		return nil, false
	}
	name := strings.TrimSpace(id)
	if colon := strings.LastIndexByte(name, ':'); colon > 0 {
		name = name[:colon]
	}
	name = stripNamespace(name, "functions.")
	if !plausibleName(name) {
		return nil, true
	}
	return []Call{newCall(name, args, FormatKimi)}, jsonComplete(args)
}
