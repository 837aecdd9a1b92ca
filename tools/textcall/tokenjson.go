package textcall

import "strings"

// JSON calls between a family's own special tokens, each pair from the family's chat template
// or its reference parser:
//
//	<|tool_call|>[{"name": …, "arguments": {…}}]<|/tool_call|>      Granite 3.x (no closer), Phi-4-mini
//	<TOOLCALL>[{"name": …, "arguments": {…}}]</TOOLCALL>            Nemotron (Llama-3.x based)
//	<|START_ACTION|>[{"tool_name": …, "parameters": {…}}]<|END_ACTION|>   Command R7B / A / North
//	<tool_calls>[…]</tool_calls>                                    Jamba, Hunyuan
//	<|action_start|><|plugin|>{"name": …, "parameters": {…}}<|action_end|>   InternLM
//	<|tool_calls|>[{'name': …, 'arguments': {…}}]                   Sarashina (Python literals)
//	<|message_model|>N<|content_invoke_tool_json|>{"name": …, "args": {…}}<|end_message|>   Inkling
//	<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": …, "arguments": {…}}             GigaChat 3
//
// The body must open with { or [ right after the token; the tokens go with the calls, so the
// prose keeps only what the model said around them. A list short of its closing bracket is
// read as Hermes bodies are (listShortOfItsBracket).

// FormatTokenJSON is JSON calls between a family's special tokens.
const FormatTokenJSON Format = "token_json"

// tokenPair is one family's opening token, its closer ("" when it has none), and the tokens
// that may stand right before the opener as part of the same call (a role header).
type tokenPair struct {
	open, close string
	before      []string
}

var tokenPairs = []tokenPair{
	{open: "<|tool_call|>", close: "<|/tool_call|>"},
	{open: "<TOOLCALL>", close: "</TOOLCALL>"},
	{open: "<|START_ACTION|>", close: "<|END_ACTION|>"},
	{open: "<tool_calls>", close: "</tool_calls>"},
	{open: "<|action_start|><|plugin|>", close: "<|action_end|>"},
	{open: "<|tool_calls|>"},
	{open: "<|content_invoke_tool_json|>", close: "<|end_message|>", before: []string{"<|message_model|>"}},
	{open: "function call<|role_sep|>", before: []string{"<|message_sep|>"}},
}

func scanTokenJSON(text string, _ scanCtx) []span {
	var out []span
	for _, p := range tokenPairs {
		if strings.Contains(text, p.open) {
			out = mergeFree(out, scanTokenPair(text, p))
		}
	}
	return out
}

func scanTokenPair(text string, p tokenPair) []span {
	opens := newFinder(text, p.open)
	var closes *finder
	if p.close != "" {
		closes = newFinder(text, p.close)
	}
	var out []span
	for pos := 0; ; {
		at := opens.at(pos)
		if at < 0 {
			return out
		}
		pos = at + len(p.open)
		i := skipSpace(text, pos)
		if i == len(text) {
			return append(out, span{start: at, end: len(text), partial: true})
		}
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		bodyEnd, end := len(text), len(text)
		if closes != nil {
			if c := closes.at(i); c >= 0 {
				bodyEnd, end = c, c+len(p.close)
			}
		}
		var calls []Call
		if e, ok := matchJSON(text[:bodyEnd], i); ok {
			calls = jsonCallsIn(text[i:e], FormatTokenJSON)
			if bodyEnd == len(text) || strings.TrimSpace(text[e:bodyEnd]) != "" {
				end = e // no closer, or text before it: the call ends with its JSON
			}
		} else if list, whole := listShortOfItsBracket(text[i:bodyEnd]); whole {
			calls = jsonCallsIn(list, FormatTokenJSON)
		} else if bodyEnd == len(text) {
			return append(out, span{start: at, end: len(text), partial: true})
		} else {
			calls = jsonCallsIn(text[i:bodyEnd], FormatTokenJSON)
		}
		if len(calls) == 0 {
			pos = end // what was read is not read again for a later opener inside it
			continue
		}
		out = append(out, span{start: tokenHeader(text, at, p.before, out), end: end, calls: calls})
		pos = end
	}
}

// tokenHeader extends a call's start back over one of the tokens that may stand before its
// opener, with a name or blanks between (Inkling's <|message_model|>N), but not into an
// earlier span.
func tokenHeader(text string, at int, before []string, out []span) int {
	floor := 0
	if len(out) > 0 {
		floor = out[len(out)-1].end
	}
	for _, tok := range before {
		from := max(floor, at-len(tok)-pyNameMax)
		i := strings.LastIndex(text[from:at], tok)
		if i < 0 {
			continue
		}
		between := strings.TrimSpace(text[from+i+len(tok) : at])
		if between == "" || plausibleName(between) {
			return from + i
		}
	}
	return at
}
