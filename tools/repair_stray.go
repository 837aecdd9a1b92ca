package tools

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Stray text around JSON arguments, as models send it to other harnesses' tools (issue 20):
// a literal backslash-n (the two characters) between tokens where the model meant a line
// break, and tokens after the closing brace (an end-of-turn token, a closing tag, a stray
// brace). Both are repaired before the call's name is mapped, so a call to another harness's
// tool with such arguments is translated rather than refused as invalid JSON.

// literalEscapesBetweenTokens replaces the escapes \n, \r and \t written outside string
// literals with a space; ok is false when there are none.
func literalEscapesBetweenTokens(text string) (string, bool) {
	if !strings.Contains(text, `\`) {
		return text, false
	}
	var b strings.Builder
	inString, changed := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && c == '\\' && i+1 < len(text):
			b.WriteByte(c)
			b.WriteByte(text[i+1])
			i++
			continue
		case c == '"':
			inString = !inString
		case !inString && c == '\\' && i+1 < len(text) && strings.IndexByte("nrt", text[i+1]) >= 0:
			b.WriteByte(' ')
			i++
			changed = true
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), changed
}

// dropTrailingTokens cuts text after its first complete JSON object when what follows holds no
// second object or string (so nothing the model meant as an argument is lost); ok is false
// when there is nothing to cut or the cut is not safe.
func dropTrailingTokens(text string) (string, bool) {
	if firstByte(text) != '{' {
		return text, false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	var obj map[string]json.RawMessage
	if dec.Decode(&obj) != nil {
		return text, false
	}
	end := int(dec.InputOffset())
	rest := bytes.TrimSpace([]byte(text[end:]))
	if len(rest) == 0 || bytes.ContainsAny(rest, `{"`) {
		return text, false
	}
	return strings.TrimSpace(text[:end]), true
}
