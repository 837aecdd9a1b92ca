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
//
// A tokenizer artifact seen on Mistral models puts a few stray tokens between the name and
// the object: read_file ▁▁ {"path": "a.go"}, bash [ARGS] {"command": "ls"}, read_file<unk>{…}
// (a special token may be glued to the name). The name must then
// open its line and each of at most three stray tokens must hold no ASCII letter outside
// brackets (non-ASCII pieces, punctuation, [SPECIAL] or <special> tokens), so that a sentence
// whose words stand between a tool's name and an object stays prose.

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
			var ok bool
			if start, name, ok = nameBeforeStray(text, open, pos); !ok || !sc.accepts(name) {
				pos = open + 1
				continue
			}
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

// strayLineMax bounds how much of the line before an object is read for stray tokens.
const strayLineMax = 256

// nameBeforeStray finds a name that opens the line of the object at open, separated from it
// only by one to three stray tokens.
func nameBeforeStray(text string, open, floor int) (start int, name string, ok bool) {
	lineStart := max(floor, open-strayLineMax)
	if nl := strings.LastIndexByte(text[lineStart:open], '\n'); nl >= 0 {
		lineStart += nl + 1
	} else if lineStart > floor && lineStart > 0 {
		return 0, "", false // the line is longer than the bound: not a call line
	}
	line := text[lineStart:open]
	fields := strings.Fields(line)
	if len(fields) > 0 && !plausibleName(fields[0]) {
		// a special token glued to the name: read_file<unk> {…}, bash[ARGS]{…}
		if cut := strings.IndexAny(fields[0], "<["); cut > 0 {
			fields = append([]string{fields[0][:cut], fields[0][cut:]}, fields[1:]...)
		}
	}
	if len(fields) < 2 || len(fields) > 1+strayTokensMax || !plausibleName(fields[0]) {
		return 0, "", false
	}
	for _, tok := range fields[1:] {
		if !strayToken(tok) {
			return 0, "", false
		}
	}
	return lineStart + strings.Index(line, fields[0]), fields[0], true
}

// strayToken is a token with no ASCII letter outside brackets: "▁", "的", ":", "[ARGS]", "<s>".
func strayToken(tok string) bool {
	if len(tok) > 2 && (tok[0] == '[' && tok[len(tok)-1] == ']' || tok[0] == '<' && tok[len(tok)-1] == '>') {
		return !strings.ContainsAny(tok[1:len(tok)-1], "[]<>{}")
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '{' || c == '}' || c == '"' {
			return false
		}
	}
	return true
}
