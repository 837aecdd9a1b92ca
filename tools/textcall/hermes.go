package textcall

import "strings"

// Hermes / Qwen2.5 (and Qwen3, GLM, Qwen3-Coder, which reuse the tag):
//
//	<tool_call>
//	{"name": "read_file", "arguments": {"path": "a.go"}}
//	</tool_call>
//
// The body is JSON (Hermes), <function=…> (Qwen3-Coder) or NAME<arg_key>… (GLM); each call
// reports the format of its body. A missing </tool_call> ends the block at the next
// <tool_call> or the end of the text; the block is partial only when its body is cut off.

const (
	hermesOpen  = "<tool_call>"
	hermesClose = "</tool_call>"
)

func scanHermes(text string, sc scanCtx) []span {
	return scanTagged(text, hermesOpen, hermesClose, func(body string) ([]Call, bool) { return hermesBody(body, sc.opt.Known) })
}

// bodyParser reads the calls in the body of a tagged block; complete is false when the body
// looks cut off.
type bodyParser func(body string) (calls []Call, complete bool)

// scanTagged claims every open…close block whose body yields a call. A block without its
// close tag runs to the next open tag or the end of the text.
func scanTagged(text, open, close string, parse bodyParser) []span {
	return scanTaggedClosed(text, open, close, func(body string, _ bool) ([]Call, bool) { return parse(body) })
}

// scanTaggedClosed is scanTagged for a body parser that needs to know whether the block's close
// tag came (a value left open is then ended by the block, not cut off).
func scanTaggedClosed(text, open, close string, parse func(body string, closed bool) ([]Call, bool)) []span {
	opens, closes := newFinder(text, open), newFinder(text, close)
	var out []span
	for pos := 0; ; {
		start := opens.at(pos)
		if start < 0 {
			return out
		}
		body := start + len(open)
		bodyEnd, end, closed := len(text), len(text), false
		next := opens.at(body)
		if c := closes.at(body); c >= 0 && (next < 0 || c < next) {
			bodyEnd, end, closed = c, c+len(close), true
		} else if next >= 0 {
			bodyEnd, end = next, next
			if strings.TrimSpace(text[next+len(open):]) == "" {
				// the last tag is the closer with its '/' lost: <tool_call>{…}<tool_call>
				end, closed = len(text), true
			}
		}
		calls, complete := parse(text[body:bodyEnd], closed)
		switch {
		case !closed && next < 0 && !complete:
			out = append(out, span{start: start, end: end, partial: true})
		case len(calls) > 0:
			out = append(out, span{start: start, end: end, calls: calls})
		case next >= 0 && strings.TrimSpace(text[body:bodyEnd]) == "":
			out = append(out, span{start: start, end: end}) // a doubled open tag: wrapper only
		}
		pos = end
	}
}

func hermesBody(body string, known func(string) bool) ([]Call, bool) {
	t := trimStrayCloser(strings.TrimSpace(body))
	switch {
	case t == "":
		return nil, false
	case strings.HasPrefix(t, qwenFunctionOpen):
		return qwenFunctions(strings.TrimLeft(body, " \t\r\n")) // a last value's line break tells it ended
	case t[0] == '{':
		calls, complete := jsonSequence(t, FormatHermes)
		if len(calls) == 0 && complete {
			calls = flatCallIn(t, FormatHermes)
		}
		if len(calls) == 0 && complete {
			// the name as the object's one key, as Apertus writes its calls: {"N": {…}}
			calls = nameKeyedCalls(t)
			for i := range calls {
				calls[i].Format = FormatHermes
			}
		}
		return calls, complete
	case t[0] == '[':
		if calls := otherSyntaxBody(t); len(calls) > 0 {
			return calls, true
		}
		return jsonSequence(t, FormatHermes)
	case strings.HasPrefix(t, qwenParamOpen):
		lead := strings.TrimLeft(body, " \t\r\n")
		if name, at, ok := namedParamOpener(lead, 0, scanCtx{inMarker: true}); ok {
			return qwenFunctions(qwenFunctionOpen + name + ">" + lead[at:])
		}
		return glmBody(t, known)
	case t[0] == '<':
		if calls, _, ok := newTagPairWork(t, func(string) bool { return true }).at(0); ok {
			return calls, true // inside <tool_call>: the marker makes it a call
		}
		if calls := attrLineBody(t); calls != nil {
			return calls, true
		}
		return glmBody(t, known)
	default:
		if calls := otherSyntaxBody(t); len(calls) > 0 {
			return calls, true
		}
		if calls := otherSyntaxBody(unquoteTypographic(t)); len(calls) > 0 {
			return calls, true
		}
		if calls := attrLineBody(t); calls != nil {
			return calls, true
		}
		return glmBody(t, known)
	}
}

// trimStrayCloser drops a mangled closing tag from the end of a body whose </tool_call> never
// came: cut short ("</tool_" at the end of the reply) or misspelled ("</tool_Latin>"), as
// tool-calling-benchmark's gemma3:1b runs show. The body must still parse on its own.
func trimStrayCloser(t string) string {
	i := strings.LastIndex(t, "</tool")
	if i <= 0 || t[i:] == hermesClose {
		return t
	}
	for j := i + len("</tool"); j < len(t); j++ {
		if c := t[j]; !isIdentByte(c) && c != '>' || c == '>' && j != len(t)-1 {
			return t
		}
	}
	return strings.TrimSpace(t[:i])
}

// unquoteTypographic takes typographic quotes wrapped around a whole body off:
// <tool_call>“search_files(pattern: Brussels)”</tool_call>.
func unquoteTypographic(t string) string {
	for _, q := range [][2]string{{"“", "”"}, {"‘", "’"}, {"„", "“"}, {"«", "»"}} {
		if inner, ok := strings.CutPrefix(t, q[0]); ok {
			if inner, ok := strings.CutSuffix(inner, q[1]); ok {
				return strings.TrimSpace(inner)
			}
		}
	}
	return t
}

// otherSyntaxBody reads a <tool_call> body written in another family's marker-less call
// syntax, the whole body one or more calls: a Python call (Llama 3.2's and LFM's pythonic
// lists, Gemma 3's tool_code) or NAME then its JSON object (NAME{…}, NAME: {…}), as a model
// mixes the Hermes wrapper its harness's prompt shows with the syntax it was trained on. Inside
// the marker any name counts, as in a ```tool_call fence.
func otherSyntaxBody(t string) []Call {
	if !isNameByte(t[0]) && t[0] != '[' || t[len(t)-1] != ')' && t[len(t)-1] != '}' && t[len(t)-1] != ']' {
		return nil
	}
	sc := scanCtx{inMarker: true}
	for _, scan := range []func(string, scanCtx) []span{scanPython, scanNamedJSON} {
		spans := scan(t, sc)
		var calls []Call
		at := 0
		for _, sp := range spans {
			if strings.TrimSpace(t[at:sp.start]) != "" || sp.partial {
				calls = nil
				break
			}
			calls, at = append(calls, sp.calls...), sp.end
		}
		if len(calls) > 0 && strings.TrimSpace(t[at:]) == "" {
			for i := range calls {
				calls[i].Name = strings.TrimSuffix(calls[i].Name, ":")
			}
			return calls
		}
	}
	return nil
}

// jsonSequence reads one or more JSON values written one after another (some models put
// several calls in one block). complete is false when the last value is unterminated.
func jsonSequence(t string, f Format) ([]Call, bool) {
	var calls []Call
	i := 0
	for i < len(t) {
		if t[i] != '{' && t[i] != '[' {
			break
		}
		end, ok := matchJSON(t, i)
		if !ok {
			if list, whole := listShortOfItsBracket(t[i:]); whole {
				return append(calls, jsonCallsIn(list, f)...), true
			}
			return append(calls, jsonCallsIn(t[i:], f)...), false
		}
		calls = append(calls, jsonCallsIn(t[i:end], f)...)
		i = skipSpace(t, end)
		if i < len(t) && (t[i] == ',' || t[i] == ';') {
			i = skipSpace(t, i+1)
		}
	}
	if i < len(t) && len(calls) == 0 {
		return jsonCallsIn(t, f), true // not a clean sequence: let repair have the whole body
	}
	return calls, true
}

// listShortOfItsBracket completes a list of whole call objects that lacks only its closing
// ']' (Granite's <|tool_call|>[{…}] list, as llama-box#17 shows granite-3.1 ending it): every
// element is whole, so nothing was cut off but the bracket.
func listShortOfItsBracket(s string) (string, bool) {
	t := strings.TrimRight(s, " \t\r\n")
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "}") {
		return "", false
	}
	fixed, ok := closeBrackets(t)
	if !ok || fixed != t+"]" || !mentionsCallKey(t) {
		return "", false
	}
	return fixed, true
}
