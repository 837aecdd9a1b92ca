package tools

import (
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// The textual pre-passes of argument repair. Each runs only on text that is not valid JSON,
// reads it once, left to right, and reports whether it changed anything.

// previewRunes bounds the Before and After texts of a Repair.
const previewRunes = 80

// newRepair records one change, keeping short previews of both sides.
func newRepair(kind RepairKind, before, after string) Repair {
	return Repair{Kind: kind, Before: preview(before), After: preview(after)}
}

// preview is s cut to previewRunes runes, marked with … when cut.
func preview(s string) string { return textfmt.ClipRunes(s, previewRunes+1) }

// escapeStrayBackslashes doubles each backslash inside a double-quoted string that does not
// start a valid JSON escape: "C:\Users\x" becomes "C:\\Users\\x". A \u not followed by four
// hex digits counts as stray too.
func escapeStrayBackslashes(text string) (string, bool) {
	var b strings.Builder
	inString, changed := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case !inString:
			inString = c == '"'
		case c == '"':
			inString = false
		case c == '\\':
			if i+1 < len(text) && validEscape(text[i+1:]) {
				if changed {
					b.WriteByte(c)
				}
				i++
				c = text[i]
				break
			}
			if !changed {
				b.Grow(len(text) + 8)
				b.WriteString(text[:i])
				changed = true
			}
			b.WriteString(`\\`)
			continue
		}
		if changed {
			b.WriteByte(c)
		}
	}
	if !changed {
		return text, false
	}
	return b.String(), true
}

// validEscape says whether rest (the text after a backslash) continues a valid JSON escape.
func validEscape(rest string) bool {
	switch rest[0] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		if len(rest) < 5 {
			return false
		}
		for _, h := range rest[1:5] {
			if !strings.ContainsRune("0123456789abcdefABCDEF", h) {
				return false
			}
		}
		return true
	}
	return false
}

// pythonToJSON rewrites a Python dict literal's spellings as JSON: True, False and None
// outside strings become true, false and null, and 'single-quoted' strings become
// double-quoted ones (with their inner double quotes escaped and \' unescaped). Only tokens
// where a JSON key or value belongs are touched (after { [ , or :, and for literals before
// , } ] or the end), so text inside a string whose quotes were left unescaped stays as sent.
func pythonToJSON(text string) (string, bool) {
	var b strings.Builder
	b.Grow(len(text) + 8)
	changed := false
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			end, _ := stringEnd(text, i, '"')
			b.WriteString(text[i:end])
			i = end
		case c == '\'' && startsValue(text, i):
			end, closed := stringEnd(text, i, '\'')
			b.WriteString(requoteSingle(text[i:end], closed))
			changed = true
			i = end
		case isWordStart(c) && (i == 0 || !isWordByte(text[i-1])):
			j := i
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			word := text[i:j]
			if lit, ok := pythonLiterals[word]; ok && startsValue(text, i) && endsValue(text, j) {
				b.WriteString(lit)
				changed = true
			} else {
				b.WriteString(word)
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	if !changed {
		return text, false
	}
	return b.String(), true
}

// startsValue says whether a JSON key or value can start at text[i]: it follows { [ , or :
// (spaces aside), or nothing.
func startsValue(text string, i int) bool {
	for i--; i >= 0; i-- {
		switch text[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[', ',', ':':
			return true
		}
		return false
	}
	return true
}

// endsValue says whether a JSON value can end just before text[j]: what follows (spaces
// aside) is , } ] or nothing.
func endsValue(text string, j int) bool {
	for ; j < len(text); j++ {
		switch text[j] {
		case ' ', '\t', '\n', '\r':
			continue
		case ',', '}', ']':
			return true
		}
		return false
	}
	return true
}

// cutOff says whether the object starting at the first '{' of text ends early: the text
// runs out inside a string or with brackets still open (a reply cut by the output limit).
// Prose after a complete object does not count.
func cutOff(text string) bool {
	start := strings.IndexByte(text, '{')
	if start < 0 {
		return false
	}
	depth := 0
	for i := start; i < len(text); i++ {
		switch c := text[i]; {
		case c == '"' || c == '\'' && startsValue(text, i):
			end, closed := stringEnd(text, i, c)
			if !closed {
				return true
			}
			i = end - 1
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth <= 0 {
				return false
			}
		}
	}
	return depth > 0
}

var pythonLiterals = map[string]string{"True": "true", "False": "false", "None": "null"}

// stringEnd is the index just past the string starting at text[start] (its quote), or
// len(text) when it is never closed.
func stringEnd(text string, start int, quote byte) (end int, closed bool) {
	for i := start + 1; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case quote:
			return i + 1, true
		}
	}
	return len(text), false
}

// requoteSingle turns 'it\'s "x"' into "it's \"x\"". An unclosed string stays unclosed.
func requoteSingle(s string, closed bool) string {
	body := s[1:]
	if closed {
		body = body[:len(body)-1]
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body) && body[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\\' && i+1 < len(body):
			b.WriteByte(c)
			b.WriteByte(body[i+1])
			i++
		case c == '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	if closed {
		b.WriteByte('"')
	}
	return b.String()
}

func isWordStart(c byte) bool { return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isWordByte(c byte) bool  { return isWordStart(c) || c >= '0' && c <= '9' }
