package textcall

import (
	"encoding/json"
	"strings"
)

// JSON calls between a family's own special tokens, each pair from the family's chat template
// or its reference parser:
//
//	<|tool_call|>[{"name": …, "arguments": {…}}]<|/tool_call|>      Granite 3.x (no closer), Phi-4-mini
//	<TOOLCALL>[{"name": …, "arguments": {…}}]</TOOLCALL>            Nemotron (Llama-3.x based)
//	<|START_ACTION|>[{"tool_name": …, "parameters": {…}}]<|END_ACTION|>   Command R7B / A / North
//	<tool_calls>[…]</tool_calls>                                    Jamba, Hunyuan
//	<tool_calls>\n{"name": …}\n{"name": …}\n</tool_calls>           MiniMax-M1 (one object a line)
//	<function_call> {"name": …, "arguments": …} <function_call> {…}   Granite-20B-FunctionCalling
//	<|tools_prefix|>[{"N": {…args}}]<|tools_suffix|>                Apertus (the name as the key)
//	<longcat_tool_call>{"name": …, "arguments": {…}}</longcat_tool_call>   LongCat-Flash
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
	nameKeyed   bool     // each call is {"NAME": {arguments}} (Apertus)
	wrappers    []string // the family's tokens around its answer text, which go with a call
}

var tokenPairs = []tokenPair{
	{open: "<|tool_call|>", close: "<|/tool_call|>"},
	{open: "<TOOLCALL>", close: "</TOOLCALL>"},
	{open: "<|START_ACTION|>", close: "<|END_ACTION|>", wrappers: []string{"<|START_RESPONSE|>", "<|END_RESPONSE|>", "<|START_TEXT|>", "<|END_TEXT|>"}},
	{open: "<tool_calls>", close: "</tool_calls>"},
	{open: "<|action_start|><|plugin|>", close: "<|action_end|>"},
	{open: "<|tool_calls|>"},
	{open: "<|content_invoke_tool_json|>", close: "<|end_message|>", before: []string{"<|message_model|>"}},
	{open: "function call<|role_sep|>", before: []string{"<|message_sep|>"}},
	{open: "<function_call>"},
	{open: "<longcat_tool_call>", close: "</longcat_tool_call>"},
	{open: "<|tools_prefix|>", close: "<|tools_suffix|>", nameKeyed: true},
}

func scanTokenJSON(text string, _ scanCtx) []span {
	var out []span
	for _, p := range tokenPairs {
		if strings.Contains(text, p.open) {
			spans := scanTokenPair(text, p)
			if len(p.wrappers) > 0 {
				spans = callsOrNothing(spans, tokenSpans(text, p.wrappers...))
			}
			out = mergeFree(out, spans)
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
		if e, ok := matchJSON(text[:bodyEnd], i); ok && p.nameKeyed {
			calls = nameKeyedCalls(text[i:e])
			if bodyEnd == len(text) || strings.TrimSpace(text[e:bodyEnd]) != "" {
				end = e
			}
		} else if ok {
			calls, e = jsonValuesFrom(text[:bodyEnd], i, e)
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

// jsonValuesFrom reads the JSON value text[i:e] and the values that follow it, one per line
// or separated by "," or ";" (MiniMax-M1 writes one object a line inside <tool_calls>), and
// returns their calls and where the last one ends.
func jsonValuesFrom(text string, i, e int) ([]Call, int) {
	calls := jsonCallsIn(text[i:e], FormatTokenJSON)
	for {
		j := skipSpace(text, e)
		if j < len(text) && (text[j] == ',' || text[j] == ';') {
			j = skipSpace(text, j+1)
		}
		if j >= len(text) || text[j] != '{' && text[j] != '[' {
			return calls, e
		}
		next, ok := matchJSON(text, j)
		if !ok {
			return calls, e
		}
		more := jsonCallsIn(text[j:next], FormatTokenJSON)
		if len(more) == 0 {
			return calls, e
		}
		calls, e = append(calls, more...), next
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

// nameKeyedCalls reads Apertus's calls: a list of (or one) single-key objects, the key the
// tool's name and the value its arguments object. Anything else yields no call.
func nameKeyedCalls(text string) []Call {
	var list []map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &list) != nil {
		var one map[string]json.RawMessage
		if json.Unmarshal([]byte(text), &one) != nil {
			return nil
		}
		list = []map[string]json.RawMessage{one}
	}
	var calls []Call
	for _, obj := range list {
		if len(obj) != 1 {
			return nil
		}
		for name, args := range obj {
			if !plausibleName(name) || len(args) == 0 || args[0] != '{' {
				return nil
			}
			calls = append(calls, newCall(name, string(args), FormatTokenJSON))
		}
	}
	return calls
}
