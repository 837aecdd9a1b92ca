package textcall

// Phi-4-mini, from its model card and vLLM's phi4mini tool parser: the calls are a JSON list
// after the word "functools" (the <|tool_call|>…<|/tool_call|> tokens of the card's template
// are read by the Hermes scanner):
//
//	functools[{"name": "read_file", "arguments": {"path": "a.go"}}]
//
// The word touches its bracket, so "functools" in a sentence is not a call.

// FormatFunctools is Phi-4-mini's functools[…] list.
const FormatFunctools Format = "functools"

const functoolsMarker = "functools["

func scanFunctools(text string, _ scanCtx) []span {
	markers := newFinder(text, functoolsMarker)
	var out []span
	for pos := 0; ; {
		start := markers.at(pos)
		if start < 0 {
			return out
		}
		open := start + len(functoolsMarker) - 1
		if j := skipSpace(text, open+1); j < len(text) && text[j] != '{' {
			pos = open + 1 // functools[0], functools[key]: an index, not a list of calls
			continue
		}
		end, ok := matchJSON(text, open)
		if !ok {
			return append(out, span{start: start, end: len(text), partial: true})
		}
		if calls := jsonCallsIn(text[open:end], FormatFunctools); len(calls) > 0 {
			out = append(out, span{start: start, end: end, calls: calls})
		}
		pos = end
	}
}
