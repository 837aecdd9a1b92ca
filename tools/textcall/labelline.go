package textcall

import "strings"

// A call rendered the way a chat client or log shows one, a name and a labelled argument
// object, written back by the model as its reply (OpenClaw relays Claude's calls as
// ": Read Args :{…}", its history as "[Tool Call: read …] Arguments: {…}"):
//
//	: Read Args :{"file_path": "a.go"}
//	bash Arguments: {"command": "ls -la"}
//	read_file input: {"path": "a.go"}
//
// The label (Args, Arguments, Input, with its colon) stands between the name and a complete
// JSON object, and the name is Known and opens its line or follows the record's ": ". Text may
// follow the object on its line (two records can share one), so the label is what tells the
// record from a sentence: "bash takes {…}" stays prose.

// labelWords are the labels between a name and its arguments, compared without case.
var labelWords = []string{"args", "arguments", "input", "parameters"}

// labelLookBack bounds how far before a '{' the label and the name are read.
const labelLookBack = 192

func scanLabelLines(text string, sc scanCtx) []span {
	var out []span
	budget := workBudget(text)
	for pos := 0; pos < len(text) && budget > 0; {
		i := strings.IndexByte(text[pos:], '{')
		if i < 0 {
			break
		}
		open := pos + i
		start, name, ok := labelledName(text, open, max(pos, open-labelLookBack))
		if !ok || !sc.accepts(name) {
			pos = open + 1
			continue
		}
		end, closed := matchJSON(text, open)
		budget -= end - open
		if !closed {
			return append(out, span{start: start, end: len(text), partial: true})
		}
		call := newCall(name, text[open:end], FormatLabelLine)
		if call.Args == nil {
			pos = open + 1
			continue
		}
		out = append(out, span{start: start, end: end, calls: []Call{call}})
		pos = end
	}
	return out
}

// labelledName reads "NAME LABEL :" (blanks around the colon optional) ending at open, with
// NAME at a line's start or after ": ". start is where the record begins.
func labelledName(text string, open, floor int) (start int, name string, ok bool) {
	j := backOver(text, open, " \t")
	if j <= floor || text[j-1] != ':' {
		return 0, "", false
	}
	j = backOver(text, j-1, " \t")
	w := j
	for w > floor && isIdentByte(text[w-1]) {
		w--
	}
	if w == j || !isLabel(text[w:j]) {
		return 0, "", false
	}
	nameEnd := backOver(text, w, " \t")
	if nameEnd == w {
		return 0, "", false // the label glued to the name
	}
	nameStart := nameEnd
	for nameStart > floor && isNameByte(text[nameStart-1]) && text[nameStart-1] != ':' {
		nameStart--
	}
	name = text[nameStart:nameEnd]
	if !plausibleName(name) {
		return 0, "", false
	}
	before := backOver(text, nameStart, " \t")
	switch {
	case before == 0 || text[before-1] == '\n':
		return before, name, true
	case text[before-1] == ':' && before < nameStart:
		return before - 1, name, true // the record's ": NAME"
	}
	return 0, "", false
}

func isLabel(word string) bool {
	for _, l := range labelWords {
		if strings.EqualFold(word, l) {
			return true
		}
	}
	return false
}
