package textcall

import "strings"

// Gemma's quote token with a plain quote standing in for one end of it: the model opens a
// value with ' or " and closes it with <|"|> (pattern:'\s*\w+<|"|>, command:"ls -a<|"|>), or
// writes both ('a.go'<|"|>). A value position holding a plain quote reads up to the first
// quote token when no matching plain quote closes the value before it, and a plain quote
// directly before that token closes the value with it. A plain 'single-quoted' value is read
// as the string it quotes. Anything else is left to the usual rules.

// mixedQuotes remembers where the next quote token and the next plain quotes are, so that a
// reply full of value positions is still read in one pass (each search only moves forward).
type mixedQuotes struct {
	// the index each was last found at, -1 when none is left, 0 before the first search
	// (every search starts past a value's opening quote, at 1 or later)
	tok, apos, dquote int
}

// nextIndex returns the index of the first sub at or after from, reusing the last search.
func nextIndex(s, sub string, from int, cached *int) int {
	if *cached == -1 || *cached >= from {
		return *cached
	}
	if i := strings.Index(s[from:], sub); i >= 0 {
		*cached = from + i
	} else {
		*cached = -1
	}
	return *cached
}

// value reads the value opening with the plain quote at s[i]: its text and where reading
// goes on; ok is false when the rules above do not apply.
func (m *mixedQuotes) value(s string, i int, quote string) (string, int, bool) {
	open := s[i]
	tok := nextIndex(s, quote, i+1, &m.tok)
	cache := &m.apos
	if open == '"' {
		cache = &m.dquote
	}
	closer := nextIndex(s, string(open), i+1, cache)
	if open == '"' && closer >= 0 && tok >= 0 && closer > tok && closer < tok+len(quote) {
		closer = -1 // the '"' inside the quote token itself
	}
	switch {
	case tok >= 0 && (closer < 0 || closer > tok):
		return s[i+1 : tok], tok + len(quote), true // opened plain, closed by the token
	case tok >= 0 && closer == tok-1:
		return s[i+1 : closer], tok + len(quote), true // closed by both
	case open == '\'' && closer >= 0:
		return s[i+1 : closer], closer + 1, true
	}
	return "", 0, false
}
