package textcall

import "strings"

// Llama 3.1/3.2/3.3, from Meta's llama-models prompt-format docs: JSON tool calls, optionally
// after the <|python_tag|> token and ended by <|eom_id|> or <|eot_id|>:
//
//	<|python_tag|>{"type": "function", "name": "read_file", "parameters": {"path": "a.go"}}<|eom_id|>
//
// Several calls are separated by ";". Built-in tools use Python syntax after the tag
// (brave_search.call(query="…")). Without the tag the JSON is read by the bare JSON scanner,
// which reports {"type":"function",…,"parameters":…} objects as FormatLlama.

const llamaTag = "<|python_tag|>"

var llamaEnds = []string{"<|eom_id|>", "<|eot_id|>"}

func scanLlama(text string, sc scanCtx) []span {
	tags := newFinder(text, llamaTag)
	ends := []*finder{newFinder(text, llamaEnds[0]), newFinder(text, llamaEnds[1]), tags}
	var out []span
	for pos := 0; ; {
		start := tags.at(pos)
		if start < 0 {
			return out
		}
		body := start + len(llamaTag)
		bodyEnd, end := len(text), len(text)
		if e := firstOf(body, ends...); e >= 0 {
			bodyEnd, end = e, e
			if !strings.HasPrefix(text[e:], llamaTag) {
				end = e + len("<|eom_id|>")
			}
		}
		calls, complete := llamaBody(text[body:bodyEnd], sc)
		switch {
		case !complete && end == len(text):
			return append(out, span{start: start, end: end, partial: true})
		case len(calls) > 0:
			out = append(out, span{start: start, end: end, calls: calls})
		}
		pos = end
	}
}

func llamaBody(body string, sc scanCtx) ([]Call, bool) {
	t := strings.TrimSpace(body)
	if t == "" {
		return nil, false
	}
	if t[0] == '{' || t[0] == '[' {
		return jsonSequence(t, FormatLlama)
	}
	return pythonCallsInMarker(t, sc, FormatLlama)
}

// pythonCallsInMarker reads Python-style calls written between a format's call markers, where
// every name counts as a call, and marks them with that format.
func pythonCallsInMarker(t string, sc scanCtx, format Format) ([]Call, bool) {
	inner := scanCtx{opt: sc.opt, inMarker: true}
	var calls []Call
	complete := true
	for _, s := range scanPython(t, inner) {
		if s.partial {
			complete = false
			continue
		}
		for _, c := range s.calls {
			c.Format = format
			calls = append(calls, c)
		}
	}
	return calls, complete
}
