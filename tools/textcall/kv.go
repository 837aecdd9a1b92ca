package textcall

import (
	"encoding/json"
	"strings"
)

// kv is one argument written as a tag pair (Qwen3-Coder, GLM, invoke XML).
type kv struct {
	key   string
	value json.RawMessage
}

// tagValue turns a value written between tags into JSON. Values stay strings: which ones are
// numbers or booleans depends on the tool's schema, and argument repair in tools/ knows it.
// Only obvious JSON arrays and objects are decoded, since no string parameter looks like one.
func tagValue(text string) json.RawMessage {
	text = trimFlattenedBreaks(trimOneNewline(text))
	if t := strings.TrimSpace(text); len(t) > 1 && (t[0] == '[' && t[len(t)-1] == ']' || t[0] == '{' && t[len(t)-1] == '}') && json.Valid([]byte(t)) {
		if v, ok := looseValue(t); ok {
			return compactJSON(v)
		}
	}
	return quoteJSON(text)
}

// trimFlattenedBreaks removes one blank from each end of a one-line value padded on both
// sides: the line breaks the formats' templates write around a value ("<parameter=K>\nV\n</…>"
// in Qwen3-Coder's, GLM's <arg_value>, the invoke form) flattened to spaces by a client or a
// log, as in QwenPaw#2813, #2822, #2971 and openclaw#61838 (Qwen3.5, Qwen3-Coder). A value
// with a line break inside, or blank on one side only (indentation), is kept as written.
func trimFlattenedBreaks(s string) string {
	if len(s) < 2 || strings.IndexByte(s, '\n') >= 0 || !isBlank(s[0]) || !isBlank(s[len(s)-1]) {
		return s
	}
	return s[1 : len(s)-1]
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// quoteJSON encodes s as a JSON string.
func quoteJSON(s string) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil { // only invalid UTF-8 is replaced, never reported; kept for safety of the contract
		return json.RawMessage(`""`)
	}
	return b
}

// objectOf builds a JSON object from ordered pairs, keeping their order.
func objectOf(pairs []kv) json.RawMessage {
	if len(pairs) == 0 {
		return emptyArgs
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(quoteJSON(p.key))
		b.WriteByte(':')
		b.Write(p.value)
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// plausibleName reports whether s can be a tool name: no spaces, not too long. It keeps prose
// that happens to sit inside a marker from becoming a call.
func plausibleName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// stripNamespace drops one namespace prefix a format defines, e.g. "functions." on Kimi and
// harmony names; other prefixes stay for name repair.
func stripNamespace(name string, prefixes ...string) string {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" {
			return rest
		}
	}
	return name
}
