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

// scanOrphans reads calls whose begin token was lost, e.g. "read_file<｜tool▁sep｜>{…}<｜tool▁call▁end｜>":
// the call starts at the word right before sep and runs to the end token. At the end of the
// text without an end token it is kept when complete and partial otherwise. parse gets the
// same body a begin token would have given it.
func scanOrphans(text, sep, end string, parse bodyParser) []span {
	seps, ends := newFinder(text, sep), newFinder(text, end)
	var out []span
	for pos := 0; ; {
		s := seps.at(pos)
		if s < 0 {
			return out
		}
		start, nameEnd := nameBefore(text, s, pos)
		bodyEnd, spanEnd := len(text), len(text)
		if e := ends.at(s); e >= 0 {
			bodyEnd, spanEnd = e, e+len(end)
		}
		calls, complete := parse(text[start:bodyEnd])
		switch {
		case start == nameEnd && (len(calls) == 0 || bodyEnd == len(text)):
			// no name before the separator: a call only when the body names it after the
			// separator (DeepSeek V3's "function" lost: <｜tool▁sep｜>NAME ```json…```) and the
			// end token closes it
		case spanEnd == len(text) && bodyEnd == len(text) && !complete:
			return append(out, span{start: start, end: spanEnd, partial: true})
		case len(calls) > 0:
			out = append(out, span{start: start, end: spanEnd, calls: calls})
		}
		pos = max(spanEnd, s+len(sep))
		if bodyEnd == len(text) {
			return out
		}
	}
}
