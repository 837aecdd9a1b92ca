package textcall

import (
	"slices"
	"strings"
)

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
//
// A reply that is nothing but a shell's name on its first line and one command line after it
// is a shell code fence whose backticks a renderer dropped (vmlx#192, Qwen3.6), or the same
// block with its closer never written:
//
//	bash
//	echo "Tool test successful!"

func scanBracketBlocks(text string, sc scanCtx) []span {
	if s, ok := nameThenLine(text, sc); ok {
		return []span{s}
	}
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

// shellFenceTags are the info strings of a shell code fence: only a fence's own language tag
// left alone on the first line says the line after it is a command, not an answer in words.
var shellFenceTags = []string{"bash", "sh", "shell", "zsh", "console"}

// nameThenLine reads a whole reply of two lines, a Known shell fence tag and its one command
// line (end-of-turn tokens after it aside).
func nameThenLine(text string, sc scanCtx) (span, bool) {
	start := skipSpace(text, 0)
	nl := strings.IndexByte(text[start:], '\n')
	if nl < 0 {
		return span{}, false
	}
	nl += start
	name := strings.TrimSpace(text[start:nl])
	body := strings.TrimSpace(text[nl+1:])
	for trimmed := true; trimmed; {
		trimmed = false
		for _, tok := range endTokens {
			if t, ok := strings.CutSuffix(body, tok); ok {
				body, trimmed = strings.TrimSpace(t), true
			}
		}
	}
	if body == "" || strings.ContainsAny(body, "\n`") || !slices.Contains(shellFenceTags, name) || !sc.accepts(name) {
		return span{}, false
	}
	end := strings.Index(text[nl:], body) + nl + len(body)
	return span{start: start, end: end, calls: []Call{newCall(name, body, FormatBracketBlock)}}, true
}
