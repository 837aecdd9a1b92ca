package textcall

import (
	"encoding/json"
	"strings"
)

// Gemma. Gemma 4's chat template writes calls as
//
//	<|tool_call>call:read_file{path:<|"|>a.go<|"|>,limit:20}<tool_call|>
//
// with <|"|> quoting strings and bare keys; FunctionGemma uses
// <start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>. Gemma 2/3 have no
// call tokens and are prompted to write ```tool_code blocks of Python calls; those are read
// by the fenced scanner and reported as FormatGemma.

const (
	gemmaOpen       = "<|tool_call>"
	gemmaClose      = "<tool_call|>"
	gemmaQuote      = `<|"|>`
	funcGemmaOpen   = "<start_function_call>"
	funcGemmaClose  = "<end_function_call>"
	funcGemmaEscape = "<escape>"
)

func scanGemma(text string, sc scanCtx) []span {
	four := scanTaggedClosed(text, gemmaOpen, gemmaClose, func(body string, closed bool) ([]Call, bool) { return gemmaBody(body, gemmaQuote, closed) })
	function := scanTaggedClosed(text, funcGemmaOpen, funcGemmaClose, func(body string, closed bool) ([]Call, bool) {
		return gemmaBody(body, funcGemmaEscape, closed)
	})
	return mergeFree(mergeFree(four, function), scanTagged(text, toolCodeOpen, toolCodeClose, toolCodeBody))
}

// Gemma 3's tool_code block written as a tag instead of a fence (<tool_code>run_command("ls")
// </tool_code>, as local proxies' captures of gemma-3 show): the same Python calls, the tag the
// marker.
const (
	toolCodeOpen  = "<tool_code>"
	toolCodeClose = "</tool_code>"
)

// toolCodeBody reads a <tool_code> body: Python calls and nothing else.
func toolCodeBody(body string) ([]Call, bool) {
	t := strings.TrimSpace(body)
	if t == "" {
		return nil, false
	}
	calls := otherSyntaxBody(t)
	for i := range calls {
		if calls[i].Format == FormatPython {
			calls[i].Format = FormatGemma
		}
	}
	return calls, true
}

// gemmaBody reads "call:NAME{args}" with args in Gemma's relaxed object syntax. closed says
// the block's close tag came: a last string left open then ends at the object's own '}'.
func gemmaBody(body, quote string, closed bool) ([]Call, bool) {
	t := strings.TrimSpace(body)
	if rest, ok := strings.CutPrefix(t, "call:"); ok {
		t = rest
	} else {
		t = strings.TrimPrefix(t, ":") // "call" lost, its colon kept: <|tool_call>:read_file{…}
	}
	brace := strings.IndexByte(t, '{')
	if paren := strings.IndexByte(t, '('); paren > 0 && (brace < 0 || paren < brace) {
		// Python's call syntax between Gemma's call tokens (Gemma 3's documented form, inside
		// Gemma 4's markers): call:read_file(path="a.go")
		if calls, complete := pythonCallsInMarker(t, scanCtx{}, FormatGemma); len(calls) > 0 || !complete {
			return calls, complete
		}
		// Gemma 4's own object in round brackets: call:bash(command:<|"|>ls<|"|>), its
		// strings in the quote token or, as inside its braces, plain quotes
		// (call:search(query: "blockchain news"), hermes-agent#7457)
		if strings.HasSuffix(t, ")") && (strings.Contains(t, quote) || keyColonFirst(t[paren+1:])) {
			t = t[:paren] + "{" + t[paren+1:len(t)-1] + "}"
			brace = paren
		}
	}
	if brace < 0 {
		name := strings.TrimSpace(t)
		if !plausibleName(name) {
			return nil, name != ""
		}
		return []Call{{Name: name, Args: emptyArgs, Format: FormatGemma}}, true
	}
	name := strings.TrimSpace(t[:brace])
	if !plausibleName(name) {
		return nil, true
	}
	converted, end, complete := relaxedToJSON(t, brace, quote)
	if !complete && closed {
		if fixed, ok := closeLastQuote(t[brace:], quote); ok {
			converted, end, complete = relaxedToJSON(fixed, 0, quote)
			t, brace = fixed, 0
		}
	}
	raw := t[brace:end]
	call := Call{Name: name, Args: argsFromText(converted), Raw: raw, Format: FormatGemma}
	return []Call{call}, complete
}

// relaxedToJSON converts the object at s[i] written with bare keys, quote-token strings and
// bare words into JSON text. end is where the object stops; complete is false when the text
// ends first.
func relaxedToJSON(s string, i int, quote string) (out string, end int, complete bool) {
	var b strings.Builder
	var stack []byte // the open brackets
	expectKey, afterColon := false, false
	var mixed mixedQuotes
	for i < len(s) {
		wasAfterColon := afterColon
		afterColon = false
		if c := s[i]; wasAfterColon && quote != "" && (c == '\'' || c == '"') {
			if value, next, ok := mixed.value(s, i, quote); ok {
				b.Write(quoteJSON(value))
				i = next
				continue
			}
		}
		if quote != "" && strings.HasPrefix(s[i:], quote) {
			j := strings.Index(s[i+len(quote):], quote)
			if j < 0 {
				return b.String(), len(s), false
			}
			b.Write(quoteJSON(s[i+len(quote) : i+len(quote)+j]))
			i += 2*len(quote) + j
			expectKey = false
			continue
		}
		c := s[i]
		switch {
		case c == '{' || c == '[':
			stack = append(stack, c)
			expectKey = c == '{'
			b.WriteByte(c)
			i++
		case c == '}' || c == ']':
			b.WriteByte(c)
			i++
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				return b.String(), i, true
			}
			expectKey = false
		case c == ',':
			b.WriteByte(c)
			i++
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
		case c == '"':
			j, ok := matchString(s, i)
			b.WriteString(s[i:j])
			if !ok {
				return b.String(), len(s), false
			}
			i, expectKey = j, false
		case isSpace(c) || c == ':':
			b.WriteByte(c)
			i++
			afterColon = c == ':' || wasAfterColon // blanks between a key's colon and its value
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(",:{}[]", rune(s[j])) && !(quote != "" && strings.HasPrefix(s[j:], quote)) {
				j++
			}
			if j == i { // a byte no rule takes: copy it and let repair judge
				b.WriteByte(c)
				i++
				continue
			}
			word := strings.TrimSpace(s[i:j])
			if expectKey || isJSONLiteral(word) {
				if expectKey {
					b.Write(quoteJSON(word))
				} else {
					b.WriteString(word)
				}
			} else {
				b.Write(quoteJSON(word))
			}
			i, expectKey = j, false
		}
	}
	return b.String(), len(s), false
}

// closeLastQuote closes a quote-token string left open in a terminated block's object:
// <|tool_call>call:glob{pattern:<|"|>*/}<tool_call|> (a Gemma 4 leak TensorFold's repair
// records). The object's last '}' ends the block's body, so the string runs up to it; the
// repair holds only when the object then reads whole.
func closeLastQuote(obj, quote string) (string, bool) {
	obj = strings.TrimRight(obj, " \t\r\n")
	last := strings.LastIndex(obj, quote)
	if quote == "" || last < 0 || !strings.HasSuffix(obj, "}") || strings.Count(obj, quote)%2 == 0 {
		return "", false
	}
	fixed := obj[:len(obj)-1] + quote + "}"
	if _, _, complete := relaxedToJSON(fixed, 0, quote); !complete {
		return "", false
	}
	return fixed, true
}

// matchString returns the index past the JSON string opening at s[i].
func matchString(s string, i int) (int, bool) {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return len(s), false
}

// isJSONLiteral reports whether a bare word is already a JSON number or literal.
func isJSONLiteral(w string) bool {
	if w == "true" || w == "false" || w == "null" {
		return true
	}
	return w != "" && (w[0] == '-' || w[0] >= '0' && w[0] <= '9') && json.Valid([]byte(w))
}

// keyColonFirst reports whether s opens with a bare key and a colon (key: …), the relaxed
// object syntax rather than Python's key=value.
func keyColonFirst(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	i := 0
	for i < len(s) && i <= pyNameMax && isIdentByte(s[i]) {
		i++
	}
	return i > 0 && i < len(s) && s[i] == ':'
}
