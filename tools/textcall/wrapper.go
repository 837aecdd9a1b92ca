package textcall

import "slices"

// tokenSpans claims every occurrence of wrapper tokens that carry no call themselves (e.g.
// <｜tool▁calls▁begin｜>), so they leave the prose with the calls they wrap.
func tokenSpans(text string, tokens ...string) []span {
	var out []span
	for _, tok := range tokens {
		f := newFinder(text, tok)
		for i := f.at(0); i >= 0; i = f.at(i + len(tok)) {
			out = append(out, span{start: i, end: i + len(tok)})
		}
	}
	return out
}

// withWrappers merges call spans with wrapper-token spans, dropping wrappers inside calls.
func withWrappers(calls, wrappers []span) []span {
	slices.SortFunc(wrappers, func(a, b span) int { return a.start - b.start })
	return mergeFree(calls, wrappers)
}

// hasCall reports whether any span holds a call or is partial; wrapper tokens alone are left
// in the prose, since without a call they are only an attempt (see Looks).
func hasCall(spans []span) bool {
	for _, s := range spans {
		if s.partial || len(s.calls) > 0 {
			return true
		}
	}
	return false
}

// callsOrNothing returns the merged spans when they hold a call, else nil.
func callsOrNothing(calls, wrappers []span) []span {
	if !hasCall(calls) {
		return nil
	}
	return withWrappers(calls, wrappers)
}
