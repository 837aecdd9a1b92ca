package textcall

import "strings"

// HoldFrom is where a display that streams a reply should stop printing text that may be a
// call written as text: the first marker token a model writes only when it attempts a call
// (attemptTokens), or, when none is whole yet, the start of a trailing piece that the next
// delta may complete into one. The second result says whether a whole token was found. With
// neither, it is len(text). A display holds text from there until it knows whether repair read
// a call from it, so people see the recovered call, not its raw markup (docs/ARCHITECTURE.md,
// "How a turn flows").
func HoldFrom(text string) (int, bool) {
	first, longest := -1, 0
	for _, tok := range attemptTokens {
		if i := strings.Index(text, tok); i >= 0 && (first < 0 || i < first) {
			first = i
		}
		longest = max(longest, len(tok))
	}
	if first >= 0 {
		return first, true
	}
	from := len(text) - longest + 1
	if from < 0 {
		from = 0
	}
	for i := from; i < len(text); i++ {
		for _, tok := range attemptTokens {
			if len(tok) > len(text)-i && strings.HasPrefix(tok, text[i:]) {
				return i, false
			}
		}
	}
	return len(text), false
}
