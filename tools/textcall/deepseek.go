package textcall

import "strings"

// DeepSeek V3 / R1, from the deepseek-ai chat templates and vLLM's deepseekv3 parser:
//
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file
//	```json
//	{"path": "a.go"}
//	```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// and V3.1 (deepseekv31 parser): <｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"a.go"}<｜tool▁call▁end｜>.
// The tokens use full-width bars and U+2581; ASCII bars, and '_' for U+2581 (the tokens as a
// client renders them in plain text), are accepted too.

var (
	deepSeekCallBegin  = []string{"<｜tool▁call▁begin｜>", "<|tool▁call▁begin|>", "<｜tool_call_begin｜>", "<|tool_call_begin|>"}
	deepSeekCallEnd    = []string{"<｜tool▁call▁end｜>", "<|tool▁call▁end|>", "<｜tool_call_end｜>", "<|tool_call_end|>"}
	deepSeekSep        = []string{"<｜tool▁sep｜>", "<|tool▁sep|>", "<｜tool_sep｜>", "<|tool_sep|>"}
	deepSeekWrapTokens = []string{"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<|tool▁calls▁begin|>", "<|tool▁calls▁end|>",
		"<｜tool_calls_begin｜>", "<｜tool_calls_end｜>", "<|tool_calls_begin|>", "<|tool_calls_end|>", "<｜end▁of▁sentence｜>"}
)

func scanDeepSeek(text string, sc scanCtx) []span {
	var calls []span
	for v := range deepSeekCallBegin {
		calls = mergeFree(calls, scanDeepSeekSpelling(text, deepSeekCallBegin[v], deepSeekCallEnd[v], deepSeekSep[v]))
	}
	return callsOrNothing(calls, tokenSpans(text, deepSeekWrapTokens...))
}

func scanDeepSeekSpelling(text, begin, end, sep string) []span {
	parse := func(body string) ([]Call, bool) { return deepSeekBody(body, sep) }
	return mergeFree(scanTagged(text, begin, end, parse), scanOrphans(text, sep, end, parse))
}

// deepSeekBody reads "NAME<｜tool▁sep｜>{…}" (V3.1) or "function<｜tool▁sep｜>NAME\n```json…```" (V3).
func deepSeekBody(body, sep string) ([]Call, bool) {
	left, right, ok := strings.Cut(body, sep)
	if !ok {
		return nil, false
	}
	name, args := strings.TrimSpace(left), right
	if name == "function" || name == "" { // V3: the name is on the line after the separator
		name, args, _ = strings.Cut(strings.TrimLeft(right, " \t\r\n"), "\n")
		args = unfence(args)
	}
	name = strings.TrimSpace(name)
	if !plausibleName(name) {
		return nil, true
	}
	call := newCall(name, args, FormatDeepSeek)
	return []Call{call}, jsonComplete(args)
}

// unfence strips a ```json … ``` fence around argument text.
func unfence(s string) string {
	t := strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(t, "```"); ok {
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.ContainsAny(rest[:nl], "{[") {
			rest = rest[nl+1:]
		}
		t = strings.TrimSuffix(strings.TrimSpace(rest), "```")
	}
	return t
}

// jsonComplete reports whether argument text is empty or a terminated JSON value: the test
// for a call cut off at the end of the reply.
func jsonComplete(args string) bool {
	t := strings.TrimSpace(args)
	if t == "" || t[0] != '{' && t[0] != '[' {
		return t != ""
	}
	_, ok := matchJSON(t, 0)
	return ok
}
