package textcall

import "strings"

// Python-call syntax, as in the pythonic tool parser of vLLM (Llama 3.2/4, Gemma tool_code):
//
//	read_file(path="a.go", limit=20)
//	print(default_api.read_file(path="a.go"))
//	[read_file(path="a.go"), list_dir(path=".")]
//	print(await default_api.read_file(path="a.go"))   (an async API's call)
//
// With no marker around it a call counts only when its name is Known and it stands on its own
// line (alone or in a list of calls), so "run read_file(path=…) next" in a sentence stays
// prose. The default_api. and functions. namespaces are stripped.

// pyNameMax bounds how far back from "(" a name is read.
const pyNameMax = 128

func scanPython(text string, sc scanCtx) []span {
	var found []span
	budget := workBudget(text)
	for pos := 0; pos < len(text) && budget > 0; {
		k := strings.IndexByte(text[pos:], '(')
		if k < 0 {
			break
		}
		open := pos + k
		start := open
		for start > pos && open-start < pyNameMax && (isIdentByte(text[start-1]) || text[start-1] == '.') {
			start--
		}
		call, end, st := pyCallAt(text, start, open, sc)
		budget -= end - open
		switch st {
		case pyCutOff:
			return append(found, span{start: start, end: len(text), partial: true})
		case pyOK:
			if a := start - len(awaitWord); a >= 0 && text[a:start] == awaitWord {
				start = a // an async call: await read_file(path="a.go")
			}
			found = append(found, span{start: start, end: end, calls: []Call{call}})
			pos = end
		default:
			pos = open + 1
		}
	}
	return linesOfCalls(text, found, sc.inMarker)
}

// pyCallAt reads the call whose name spans text[start:open], unwrapping print(…).
func pyCallAt(text string, start, open int, sc scanCtx) (Call, int, pyStatus) {
	name := text[start:open]
	if name == "" || name[0] == '.' || name[0] >= '0' && name[0] <= '9' {
		return Call{}, open, pyBad
	}
	if name == "print" {
		inner := skipAwait(text, skipSpace(text, open+1))
		j := inner
		for j < len(text) && j-inner < pyNameMax && (isIdentByte(text[j]) || text[j] == '.') {
			j++
		}
		if j == inner || j >= len(text) || text[j] != '(' {
			return Call{}, open, pyBad
		}
		call, end, st := pyCallAt(text, inner, j, sc)
		if st != pyOK {
			return call, end, st
		}
		if end = skipSpace(text, end); end >= len(text) {
			return call, end, pyCutOff
		}
		if text[end] != ')' {
			return Call{}, end, pyBad
		}
		return call, end + 1, pyOK
	}
	name = stripNamespace(name, "default_api.", "functions.")
	if !sc.accepts(name) {
		return Call{}, open, pyBad
	}
	p := pyReader{s: text, i: open + 1}
	switch k := backOver(text, start, " \t"); {
	case sc.inMarker:
		p.bare = bareAny
	case k > 0 && text[k-1] == '[':
		p.bare = bareNotCode // the pythonic list form: [bash(cmd=cat README.md)]
	}
	pairs, positional, st := p.args()
	if st != pyOK {
		return Call{}, p.i, st
	}
	call := Call{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(text[open+1 : p.i-1]), Format: FormatPython}
	switch {
	case positional == 1 && len(pairs) == 0 && p.object != nil:
		call.Args = p.object // the arguments object itself, passed as the one argument
	case positional > 0:
		call.Args = nil // positional values cannot be named without the tool's schema
		if positional == 1 && len(pairs) == 0 && len(p.first) > 0 && p.first[0] == '"' {
			// one string, in JSON's quotes whatever the model's were, for the tools'
			// one-string-argument repair: search_files('*.py')
			call.Raw = string(p.first)
		}
	}
	return call, p.i, pyOK
}

// awaitWord opens an async call, as tool_code written for async APIs does:
// print(await default_api.read_file(path="a.go")).
const awaitWord = "await "

// skipAwait skips "await " at i.
func skipAwait(text string, i int) int {
	if strings.HasPrefix(text[i:], awaitWord) {
		return skipSpace(text, i+len(awaitWord))
	}
	return i
}

// linesOfCalls keeps the calls that stand on their own line (one call, or several separated
// by "," or ";", optionally in [ ]), absorbing the list brackets and separators. Inside a
// marker every call is kept.
func linesOfCalls(text string, found []span, inMarker bool) []span {
	var out []span
	for i := 0; i < len(found); {
		j := i + 1
		for j < len(found) && onlyRunes(text[found[j-1].end:found[j].start], " \t,;") {
			j++
		}
		start, end := found[i].start, found[j-1].end
		if k := backOver(text, start, " \t"); k > 0 && text[k-1] == '[' {
			start = k - 1
		}
		bracketed := false
		if k := skipOver(text, end, " \t"); k < len(text) && text[k] == ']' && start < found[i].start {
			end, bracketed = k+1, true
		}
		// A stray closer whose opening was lost ends the call's line, as after bare JSON:
		// Hermes's </tool_call>, LFM's <|tool_call_end|>, Gemma 3's </tool_code>.
		k := skipOver(text, end, " \t")
		for _, closer := range pythonClosers {
			if strings.HasPrefix(text[k:], closer) {
				end = k + len(closer)
				break
			}
		}
		if inMarker || lineEdge(text, start, end) || bracketed && gluedAnswer(text, start, end) {
			group := found[i:j]
			group[0].start, group[len(group)-1].end = start, end
			for g := range group[:len(group)-1] {
				group[g].end = group[g+1].start
			}
			out = append(out, group...)
		}
		i = j
	}
	return out
}

// pythonClosers close the markers of the families whose calls are Python syntax.
var pythonClosers = []string{hermesClose, lfmEnd, toolCodeClose}

// gluedAnswer reports whether a bracketed call list that opens its line has the answer glued
// straight after its "]": LFM's <|tool_call_start|>[…]<|tool_call_end|> followed by its text,
// with the special tokens stripped ("[search_files(pattern=\"*.py\")]I am searching…").
// Prose that quotes the list puts a blank after it.
func gluedAnswer(text string, start, end int) bool {
	before := backOver(text, start, " \t")
	return (before == 0 || text[before-1] == '\n') && end < len(text) && (isASCIILetter(text[end]) || text[end] >= 0x80)
}

// lineEdge reports whether text[start:end] has only blanks or backticks between it and the
// line's (or text's) edges. End-of-turn tokens after it count as the line's end: Llama 3.2's
// and 4's prompt formats end a call list with <|eot_id|>, <|eot|> or <|eom|> on its line.
func lineEdge(text string, start, end int) bool {
	before := backOver(text, start, " \t`")
	after := skipEndTokens(text, skipOver(text, end, " \t`"))
	return (before == 0 || text[before-1] == '\n') && (after == len(text) || text[after] == '\n' || text[after] == '\r')
}

// skipEndTokens skips the end-of-turn tokens (endTokens) and blanks at i.
func skipEndTokens(text string, i int) int {
	for more := true; more; {
		more = false
		for _, tok := range endTokens {
			if strings.HasPrefix(text[i:], tok) {
				i, more = skipOver(text, i+len(tok), " \t"), true
				break
			}
		}
	}
	return i
}

func backOver(text string, i int, set string) int {
	for i > 0 && strings.IndexByte(set, text[i-1]) >= 0 {
		i--
	}
	return i
}

func skipOver(text string, i int, set string) int {
	for i < len(text) && strings.IndexByte(set, text[i]) >= 0 {
		i++
	}
	return i
}

func onlyRunes(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return true
}
