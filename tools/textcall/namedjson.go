package textcall

import "strings"

// A tool name written right before its JSON arguments, glued or on the line above:
//
//	让我正确执行：exec{"command": "openclaw status"}        (openclaw#39626)
//	exec
//	{"command": "pwd"}                                     (openclaw#41852, Kimi K2.5)
//	web_search{"query": "…"}</function>                    (smolagents#1119, Groq Llama)
//
// With no marker around it, a candidate counts only when its name is Known, the object is
// valid JSON and nothing but white space (or a stray </function>) follows it on its line, so a
// sentence that quotes an object after a tool's name stays prose. At most one line break may
// separate the name from the object. A Known name whose object runs to the end of the text is
// a cut-off call.

func scanNamedJSON(text string, sc scanCtx) []span {
	var out []span
	budget := workBudget(text)
	for pos := 0; pos < len(text) && budget > 0; {
		i := strings.IndexByte(text[pos:], '{')
		if i < 0 {
			break
		}
		open := pos + i
		start, nameEnd := nameBefore(text, open, pos)
		name := text[start:nameEnd]
		if !namedJSONGap(text[nameEnd:open]) || !sc.accepts(name) || start > 0 && isIdentByte(text[start-1]) {
			pos = open + 1
			continue
		}
		objEnd, closed := matchJSON(text, open)
		budget -= objEnd - open
		if !closed { // the text ends inside the arguments: a cut-off call
			return append(out, span{start: start, end: len(text), partial: true})
		}
		end := objEnd
		if after := skipSpace(text, end); strings.HasPrefix(text[after:], qwenFunctionClose) {
			end = after + len(qwenFunctionClose)
		}
		call := newCall(name, text[open:objEnd], FormatNamedJSON)
		if call.Args == nil || !lineEndsAt(text, end) {
			pos = open + 1
			continue
		}
		out = append(out, span{start: start, end: end, calls: []Call{call}})
		pos = end
	}
	return out
}

// namedJSONGap reports whether the text between a name and its "{" is nothing or white space
// holding at most one line break.
func namedJSONGap(gap string) bool {
	return strings.TrimSpace(gap) == "" && strings.Count(gap, "\n") <= 1
}

// lineEndsAt reports whether only spaces and tabs stand between i and the end of its line.
func lineEndsAt(text string, i int) bool {
	j := skipOver(text, i, " \t\r")
	return j == len(text) || text[j] == '\n'
}
