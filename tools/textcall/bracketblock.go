package textcall

import "strings"

// A call written as a block closed by a bracketed end tag that names the tool, its opening
// line either the bracketed name or the bare name (ClawRouter#193, GPT 5.4):
//
//	terminal
//	ls -alh /home/Blockrun
//	[/terminal]
//
//	[search_files]
//	{"pattern": "TODO"}
//	[/search_files]
//
// The body is the arguments: a JSON object, or else text kept raw for argument repair (the
// tool's one required argument, say). With no call token, the name must be Known and both
// tag lines must stand alone, so BBCode-like markup in prose ([code]…[/code]) stays prose.

func scanBracketBlocks(text string, sc scanCtx) []span {
	var out []span
	budget := workBudget(text)
	for pos := 0; pos < len(text) && budget > 0; {
		lineEnd := strings.IndexByte(text[pos:], '\n')
		if lineEnd < 0 {
			break
		}
		lineEnd += pos
		name := strings.TrimSpace(text[pos:lineEnd])
		if bracketed := strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"); len(bracketed) == len(name)-2 {
			name = bracketed
		}
		if !plausibleName(name) || !sc.accepts(name) {
			pos = lineEnd + 1
			continue
		}
		closer := "[/" + name + "]"
		at := strings.Index(text[lineEnd:], closer)
		if at < 0 {
			budget -= len(text) - lineEnd
			pos = lineEnd + 1
			continue
		}
		budget -= at
		closeAt := lineEnd + at
		end := closeAt + len(closer)
		if lineStart := backOver(text, closeAt, " \t"); lineStart > 0 && text[lineStart-1] != '\n' || !lineEndsAt(text, end) {
			pos = lineEnd + 1
			continue
		}
		body := strings.TrimSpace(text[lineEnd+1 : closeAt])
		out = append(out, span{start: pos, end: end, calls: []Call{newCall(name, body, FormatBracketBlock)}})
		pos = end
	}
	return out
}
