package textcall

import "strings"

// A bare JSON call (barejson.go) that never closes because of two slips models make, each
// read only when the result is a whole call object with a Known name:
//
//   - a key's closing quote written escaped, {"command": "ls", "timeout\": 10000}, so the
//     rest of the reply reads as one string (Qwen3.6-27B under MTPLX, MTPLX#196): a
//     backslash-quote at a key's end followed by ':' closes the key;
//   - the object's last closing braces dropped where the prose resumes,
//     {"name": "bash", "arguments": {"command": "ls"}Let me look: one or two closers
//     missing right before text that cannot continue JSON.

// proseCutMax bounds the text walked for one such candidate.
const proseCutMax = 64 << 10

// closedBeforeProse reads s (an unterminated object at its start) with those two repairs. It
// returns the repaired object and how many bytes of s it spans.
func closedBeforeProse(s string) (fixed string, n int, ok bool) {
	s = s[:min(len(s), proseCutMax)]
	var b strings.Builder
	var open []byte
	repaired := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			key := len(open) > 0 && open[len(open)-1] == '}' && lastSignificant(b.String()) != ':'
			end, escapedKey := stringEnd(s, i, key)
			if end < 0 {
				return "", 0, false
			}
			if escapedKey {
				b.WriteString(s[i:end-2] + `"`) // drop the backslash before the key's quote
				repaired = true
			} else {
				b.WriteString(s[i:end])
			}
			i = end - 1
			continue
		case '{':
			open = append(open, '}')
		case '[':
			open = append(open, ']')
		case '}', ']':
			if len(open) == 0 || open[len(open)-1] != c {
				return "", 0, false
			}
			open = open[:len(open)-1]
			b.WriteByte(c)
			if len(open) == 0 {
				return b.String(), i + 1, repaired
			}
			next := skipSpace(s, i+1)
			if len(open) <= 2 && next < len(s) && !strings.ContainsRune(",}]", rune(s[next])) {
				for k := len(open) - 1; k >= 0; k-- {
					b.WriteByte(open[k])
				}
				return b.String(), i + 1, true
			}
			continue
		}
		b.WriteByte(c)
	}
	return "", 0, false
}

// stringEnd returns the index past the string opening at s[i]; for a key, a backslash-quote
// followed by ':' ends it too (escapedKey). -1 when the text ends first.
func stringEnd(s string, i int, key bool) (end int, escapedKey bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if key && j+1 < len(s) && s[j+1] == '"' {
				if k := skipSpace(s, j+2); k < len(s) && s[k] == ':' {
					return j + 2, true
				}
			}
			j++
		case '"':
			return j + 1, false
		case '\n':
			if key {
				return -1, false
			}
		}
	}
	return -1, false
}

// lastSignificant returns the last byte of s that is not white space, or 0.
func lastSignificant(s string) byte {
	for i := len(s) - 1; i >= 0; i-- {
		if !isSpace(s[i]) {
			return s[i]
		}
	}
	return 0
}
