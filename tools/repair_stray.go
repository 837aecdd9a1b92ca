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

// maxBraceLayers bounds the doubled braces unwrapped from one object.
const maxBraceLayers = 4

// unwrapDoubledBraces reads an object written inside doubled or tripled braces,
// {{"path": "a.go"}}: the escape Python's str.format and Jinja templates use for a literal
// brace, left in by a prompt template or the model copying it. The text is never valid JSON
// as it stands, so unwrapping changes no call that parsed; ok only when the unwrapped text is
// a valid object.
func unwrapDoubledBraces(text string) (string, bool) {
	n := 0
	for n < len(text) && n <= maxBraceLayers && text[n] == '{' && text[len(text)-1-n] == '}' {
		n++
	}
	if n < 2 || 2*n > len(text) {
		return text, false
	}
	inner := text[n-1 : len(text)-n+1]
	if !json.Valid([]byte(inner)) {
		return text, false
	}
	return inner, true
}

// maxCopyProbes bounds the places dropCutCopy tries as the start of the second copy.
const maxCopyProbes = 8

// dropCutCopy reads arguments that arrive twice, the first copy cut off before its closing
// brace and the whole object after it ({"command": "ls", "timeout": 5{"command": "ls",
// "timeout": 5}): a stream restarted mid-call, whose deltas the client appended. The second
// copy is the call when the first is, blanks aside, the start of it; anything else in the
// first copy means another call and is not guessed at.
func dropCutCopy(text string) (string, bool) {
	key, ok := firstKey(text)
	if !ok {
		return text, false
	}
	from := 1
	for probe := 0; probe < maxCopyProbes; probe++ {
		i := strings.Index(text[from:], key)
		if i < 0 {
			return text, false
		}
		at := from + i
		from = at + len(key)
		p := at - 1
		for p > 0 && strings.IndexByte(" \t\r\n", text[p]) >= 0 {
			p--
		}
		if p <= 0 || text[p] != '{' || valueExpected(text[:p]) {
			continue // a '{' where a value belongs opens a nested object, not a second copy
		}
		second := strings.TrimSpace(text[p:])
		if !json.Valid([]byte(second)) {
			continue
		}
		if strings.HasPrefix(withoutBlanks(second), withoutBlanks(text[:p])) {
			return second, true
		}
	}
	return text, false
}

// valueExpected says whether JSON text ends where a value belongs (after ':', ',', '[' or '{').
func valueExpected(text string) bool {
	t := strings.TrimRight(text, " \t\r\n")
	return t == "" || strings.IndexByte(":,[{", t[len(t)-1]) >= 0
}

// firstKey is the quoted first key of an object's text ("command" with its quotes).
func firstKey(text string) (string, bool) {
	rest := strings.TrimLeft(text, " \t\r\n")
	if !strings.HasPrefix(rest, "{") {
		return "", false
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if !strings.HasPrefix(rest, `"`) {
		return "", false
	}
	end := strings.IndexByte(rest[1:], '"')
	if end < 0 {
		return "", false
	}
	return rest[:end+2], true
}

// withoutBlanks drops the blanks outside strings of JSON text.
func withoutBlanks(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && c == '\\' && i+1 < len(text):
			b.WriteByte(c)
			i++
			c = text[i]
		case c == '"':
			inString = !inString
		case !inString && strings.IndexByte(" \t\r\n", c) >= 0:
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
