package textcall

import "strings"

// finder returns successive occurrences of one token in a text. It remembers the last
// occurrence it found (or that there is none), so a scanner that asks again from a later
// position never searches the same bytes twice: the whole text is searched at most once.
type finder struct {
	text, token string
	next        int // the cached occurrence at or after the last query, or -1 for none left
	from        int // the position the cache is valid from
}

func newFinder(text, token string) *finder {
	return &finder{text: text, token: token, next: -2}
}

// at returns the first occurrence at or after pos, or -1.
func (f *finder) at(pos int) int {
	if f.next == -1 && pos >= f.from {
		return -1
	}
	if f.next >= pos && pos >= f.from {
		return f.next
	}
	if pos > len(f.text) {
		return -1
	}
	f.from = pos
	if i := strings.Index(f.text[pos:], f.token); i >= 0 {
		f.next = pos + i
	} else {
		f.next = -1
	}
	return f.next
}

// firstOf returns the earliest occurrence at or after pos among the finders, or -1.
func firstOf(pos int, fs ...*finder) int {
	best := -1
	for _, f := range fs {
		if i := f.at(pos); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// skipSpace returns the first index at or after i that is not white space.
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// nameBefore finds the tool name written right before a marker at text[at] (spaces between
// are allowed): the name is text[start:end], empty when there is none. It looks back no further
// than floor, nor more than pyNameMax bytes.
func nameBefore(text string, at, floor int) (start, end int) {
	end = backOver(text, at, " \t\r\n")
	start = end
	for start > floor && end-start < pyNameMax && isNameByte(text[start-1]) {
		start--
	}
	return start, end
}

// isNameByte reports whether c may appear in a tool name as models write it.
func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// matchJSON returns the index just past the bracket that closes the object or array opening
// at text[i], skipping double-quoted strings. ok is false when the text ends first.
func matchJSON(text string, i int) (end int, ok bool) {
	depth := 0
	for ; i < len(text); i++ {
		switch text[i] {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return len(text), false
}

// trimOneNewline drops one leading and one trailing line break, the way chat templates put a
// value on its own lines.
func trimOneNewline(s string) string {
	s = strings.TrimPrefix(s, "\r")
	s = strings.TrimPrefix(s, "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// workBudget bounds the bytes a scanner without a marker may examine in text: every
// unterminated candidate is matched to the end of the text, so a reply full of them would
// otherwise cost quadratic time. Past the bound the rest is left as prose.
func workBudget(text string) int { return 4*len(text) + 4096 }
