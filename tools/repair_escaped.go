package tools

import (
	"encoding/json"
	"strings"
)

// An arguments object whose every quote arrives backslash-escaped: {\"path\": \"a.go\"}, or
// escaped twice, {\\\"path\\\": \\\"a.go\\\"} (issue 20: Gemma 4 through FastFlowLM to
// opencode, with doubled braces around it as well). It is the object as it reads inside a JSON
// string, once or twice over, with the string's own quotes gone; a serving stack or client
// re-encoded it and the model copied it. Text with one bare quote is not this shape (a
// Windows path's backslashes are escapeStrayBackslashes' case), so nothing that is JSON, or
// nearly, is read this way.

// maxEscapeLevels bounds the layers of escaping undone (a run of 2^L-1 backslashes per quote).
const maxEscapeLevels = 3

// escapedObject undoes the escaping: the run of backslashes before the first key's quote says
// how many layers there are (1, 3 or 7 backslashes: one, two or three). A run a little longer
// than that before a quote (up to twice as long) is that same quote with stray backslashes
// (…JavaClass.java\\\\"}}, FastFlowLM#537), since no escaping makes such a run; the result
// must be a JSON object once any doubled braces are unwrapped, or nothing changes.
func escapedObject(text string) (string, bool) {
	t := strings.TrimSpace(text)
	i := 0
	for i < len(t) && (t[i] == '{' || t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n') {
		i++
	}
	if i == 0 || i >= len(t) || t[i] != '\\' {
		return text, false
	}
	k := backslashRun(t, i)
	levels := 0
	for n := k; n > 0 && n%2 == 1; n /= 2 {
		levels++
	}
	if levels == 0 || levels > maxEscapeLevels || k != 1<<levels-1 || i+k >= len(t) || t[i+k] != '"' {
		return text, false
	}
	var b strings.Builder
	b.Grow(len(t) + 8)
	for j := 0; j < len(t); j++ {
		switch c := t[j]; c {
		case '\\':
			r := backslashRun(t, j)
			if j+r < len(t) && t[j+r] == '"' && r >= k && r <= 2*k {
				r = k // the quote's own escaping; the rest is stray
			}
			b.WriteString(strings.Repeat(`\`, r))
			j += backslashRun(t, j) - 1
		case '"':
			if j == 0 || t[j-1] != '\\' {
				return text, false // a bare quote: not this shape
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	for range levels {
		var inner string
		if json.Unmarshal([]byte(`"`+controlEscaper.Replace(s)+`"`), &inner) != nil {
			return text, false
		}
		s = inner
	}
	if unwrapped, ok := unwrapDoubledBraces(s); ok {
		s = unwrapped
	}
	if firstByte(s) != '{' || !json.Valid([]byte(s)) {
		return text, false
	}
	return s, true
}

// backslashRun is the number of backslashes in a row from t[i].
func backslashRun(t string, i int) int {
	n := 0
	for i+n < len(t) && t[i+n] == '\\' {
		n++
	}
	return n
}

// controlEscaper escapes the blanks between tokens that a JSON string cannot hold raw.
var controlEscaper = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`)
