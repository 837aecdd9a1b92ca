package textcall

import "strings"

// Fenced blocks: models that were prompted for a "tool_call" code fence (Gemma 2/3, many
// llama.cpp and Ollama prompt templates) or that paste a call into a ```json block:
//
//	```tool_call
//	{"name": "read_file", "arguments": {"path": "a.go"}}
//	```
//
// The content may be any other format, or, after a tool fence whose info string names the
// tool, just the arguments (zeroclaw#1420, grok-4.1):
//
//	```tool file_write
//	{"path": "a.txt", "content": "hi"}
//	```
//
// or Continue's labelled TOOL_NAME / BEGIN_ARG … END_ARG lines (continuefence.go).
//
// A fence named for tools (tool_call, tool_code, …) is
// itself a call marker; in a json/python/xml/plain fence a bare call still needs a Known name,
// so example code in an answer stays prose. Bare calls found in a fence report FormatFenced,
// except Python in ```tool_code, which is Gemma's convention and reports FormatGemma.

const fence = "```"

// fenceMarkers are the fence languages that themselves say "this is a call".
var fenceMarkers = map[string]bool{"tool_call": true, "tool_calls": true, "tool_code": true, "tool": true, "function_call": true, "functions": true}

// fencePlain are the other fence languages that may hold a call.
var fencePlain = map[string]bool{"": true, "json": true, "json5": true, "xml": true, "python": true, "py": true}

func scanFenced(text string, sc scanCtx) []span {
	fences := newFinder(text, fence)
	inner := innerScanners()
	var out []span
	for pos := 0; ; {
		start := fences.at(pos)
		if start < 0 {
			return out
		}
		langEnd := start + len(fence)
		for langEnd < len(text) && text[langEnd] != '\n' && text[langEnd] != '{' && text[langEnd] != '[' && text[langEnd] != '<' {
			langEnd++
		}
		// The language is the info string's first word: "```json action" (7836246/cursor2api#15).
		info := strings.TrimSpace(text[start+len(fence) : langEnd])
		lang, named, _ := strings.Cut(info, " ")
		lang = strings.ToLower(lang)
		bodyEnd, end := len(text), len(text)
		if c := fences.at(langEnd); c >= 0 {
			bodyEnd, end = c, c+len(fence)
		}
		if !fenceMarkers[lang] && !fencePlain[lang] {
			pos = end
			continue
		}
		spans := claim(text[langEnd:bodyEnd], scanCtx{opt: sc.opt, inMarker: fenceMarkers[lang]}, inner)
		calls, partial := fencedCalls(spans, lang)
		if len(calls) == 0 && fenceMarkers[lang] {
			calls = namedFenceCall(strings.TrimSpace(named), text[langEnd:bodyEnd])
		}
		if len(calls) == 0 && lang == "tool" {
			calls = continueToolCall(text[langEnd:bodyEnd])
		}
		if partial && end == len(text) {
			return append(out, span{start: start, end: end, partial: true})
		} else if len(calls) > 0 {
			out = append(out, span{start: start, end: end, calls: calls})
		}
		pos = end
	}
}

// namedFenceCall reads a tool fence's body as the arguments of the tool its info string names.
func namedFenceCall(name, body string) []Call {
	body = strings.TrimSpace(body)
	if !plausibleName(name) || body == "" || body[0] != '{' {
		return nil
	}
	if end, ok := matchJSON(body, 0); !ok || end != len(body) {
		return nil
	}
	return []Call{newCall(name, body, FormatFenced)}
}

// innerScanners are the scanners run inside a fence: all but the fence scanner itself.
func innerScanners() []scanner {
	all := ordered(nil)
	inner := all[:0]
	for _, s := range all {
		if s.format != FormatFenced {
			inner = append(inner, s)
		}
	}
	return inner
}

// fencedCalls collects the calls found in a fence, relabelling bare ones.
func fencedCalls(spans []span, lang string) (calls []Call, partial bool) {
	for _, s := range spans {
		partial = partial || s.partial
		for _, c := range s.calls {
			switch {
			case c.Format == FormatPython && lang == "tool_code":
				c.Format = FormatGemma
			case c.Format == FormatPython || c.Format == FormatJSON || c.Format == FormatContinue:
				c.Format = FormatFenced
			}
			calls = append(calls, c)
		}
	}
	return calls, partial
}
