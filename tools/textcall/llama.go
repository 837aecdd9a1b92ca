package textcall

import "strings"

// Llama 3.1/3.2/3.3, from Meta's llama-models prompt-format docs: JSON tool calls, optionally
// after the <|python_tag|> token and ended by <|eom_id|> or <|eot_id|>:
//
//	<|python_tag|>{"type": "function", "name": "read_file", "parameters": {"path": "a.go"}}<|eom_id|>
//
// Several calls are separated by ";". Built-in tools use Python syntax after the tag
// (brave_search.call(query="…")); any other code after the tag is for the built-in code
// interpreter, a code_interpreter call with {"code": …}. Without the tag the JSON is read by
// the bare JSON scanner, which reports {"type":"function",…,"parameters":…} objects as
// FormatLlama.

const llamaTag = "<|python_tag|>"

// Llama 4's tokenizer (its model card's prompt format) has <|python_start|> and <|python_end|>
// around code and ends a turn with <|eot|> or <|eom|>; its calls are the same JSON or
// Python-call syntax.
const llama4Tag = "<|python_start|>"

var llamaEnds = []string{"<|eom_id|>", "<|eot_id|>", "<|python_end|>", "<|eom|>", "<|eot|>"}

func scanLlama(text string, sc scanCtx) []span {
	return mergeFree(scanLlamaTag(text, llamaTag, sc), scanLlamaTag(text, llama4Tag, sc))
}

func scanLlamaTag(text, tag string, sc scanCtx) []span {
	tags := newFinder(text, tag)
	ends := []*finder{tags}
	for _, e := range llamaEnds {
		ends = append(ends, newFinder(text, e))
	}
	var out []span
	for pos := 0; ; {
		start := tags.at(pos)
		if start < 0 {
			return out
		}
		body := start + len(tag)
		bodyEnd, end := len(text), len(text)
		if e := firstOf(body, ends...); e >= 0 {
			bodyEnd, end = e, e
			for _, tok := range llamaEnds {
				if strings.HasPrefix(text[e:], tok) {
					end = e + len(tok)
					break
				}
			}
		}
		calls, complete := llamaBody(text[body:bodyEnd], sc)
		switch {
		case !complete && end == len(text):
			return append(out, span{start: start, end: end, partial: true})
		case len(calls) > 0:
			out = append(out, span{start: start, end: end, calls: calls})
		}
		pos = max(end, body)
	}
}

func llamaBody(body string, sc scanCtx) ([]Call, bool) {
	t := strings.TrimSpace(body)
	if t == "" {
		return nil, false
	}
	if t[0] == '{' || t[0] == '[' && strings.HasPrefix(strings.TrimLeft(t[1:], " \t\r\n"), "{") {
		return jsonSequence(t, FormatLlama)
	}
	if strings.HasPrefix(t, qwenFunctionOpen) {
		if c, matched, complete := llamaFunction(t[len(qwenFunctionOpen):]); matched {
			if c == nil {
				return nil, complete
			}
			return []Call{*c}, true
		}
	}
	spans := scanPython(t, scanCtx{opt: sc.opt, inMarker: true})
	if !onlyCalls(t, spans) {
		// Anything but calls after the tag is the built-in code interpreter's code
		// (llama-models chat_format.py: tool code_interpreter, arguments {"code": …}).
		return []Call{codeInterpreterCall(t)}, true
	}
	return callsOf(spans, FormatLlama)
}

// codeInterpreter is the name Meta's llama-models gives the built-in tool that runs the Python
// code a model writes after <|python_tag|> (or Llama 4's <|python_start|>).
const codeInterpreter = "code_interpreter"

func codeInterpreterCall(code string) Call {
	args := objectOf([]kv{{"code", quoteJSON(code)}})
	return Call{Name: codeInterpreter, Args: args, Raw: code, Format: FormatLlama}
}

// onlyCalls reports whether spans hold at least one call (or a cut-off one) and the text
// between them is only list brackets, separators and blanks.
func onlyCalls(t string, spans []span) bool {
	if len(spans) == 0 {
		return false
	}
	at := 0
	for _, s := range spans {
		if !onlyRunes(t[at:s.start], " \t\r\n,;[]") {
			return false
		}
		at = s.end
	}
	return onlyRunes(t[at:], " \t\r\n,;[]")
}

// callsOf collects the calls of spans marked with format; complete is false when one of
// them is cut off.
func callsOf(spans []span, format Format) ([]Call, bool) {
	var calls []Call
	complete := true
	for _, s := range spans {
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

// pythonCallsInMarker reads Python-style calls written between a format's call markers, where
// every name counts as a call, and marks them with that format.
func pythonCallsInMarker(t string, sc scanCtx, format Format) ([]Call, bool) {
	return callsOf(scanPython(t, scanCtx{opt: sc.opt, inMarker: true}), format)
}

// Llama 3.1's custom-tool format (llama-models prompt_format.md) shares Qwen3-Coder's opening
// tag but carries a JSON object:
//
//	<function=trending_songs>{"n": 10}</function>
//
// Groq's Llama 3.3 also writes it with = in place of > (freellmapi#264, llama-3.3-70b):
//
//	<function=read={"file_path": "sample.txt"}</function>
//
// llamaFunction reads rest (the text after "<function="); matched is false when it is not
// this form, and complete is false when its JSON runs to the end of rest.
func llamaFunction(rest string) (call *Call, matched, complete bool) {
	i := 0
	for i < len(rest) && isNameByte(rest[i]) {
		i++
	}
	if !plausibleName(rest[:i]) || i >= len(rest) || rest[i] != '>' && rest[i] != '=' {
		return nil, false, false
	}
	j := skipSpace(rest, i+1)
	if j >= len(rest) || rest[j] != '{' {
		return nil, false, false
	}
	end, ok := matchJSON(rest, j)
	if !ok {
		return nil, true, false
	}
	// Closed by </function>, by a lone ">" (vLLM's llama3_user_defined_custom parser reads
	// `<function=N>{…}(?:</function>|>)?`), or by the end of the block.
	// Llama 3.1's prompt format ends the call with <|eom_id|> after </function>: with the
	// closer lost, the end token ends it.
	if after := skipSpace(rest, end); after < len(rest) && !strings.HasPrefix(rest[after:], qwenFunctionClose) &&
		!(rest[after] == '>' && strings.TrimSpace(rest[after+1:]) == "") && skipSpace(rest, skipEndTokens(rest, after)) != len(rest) {
		return nil, false, false
	}
	c := newCall(rest[:i], rest[j:end], FormatLlama)
	return &c, true, true
}
