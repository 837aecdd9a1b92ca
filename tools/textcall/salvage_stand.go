package textcall

import "strings"

// Prose safety for Salvage: where a call-shaped region stands on its own.

// leadKind says what stands before a name on its line.
type leadKind int

const (
	leadProse  leadKind = iota // words before the name: a mention in a sentence
	leadLine                   // the name opens its line, after brackets or quotes at most
	leadMarker                 // call markup or a glued recipient (to=NAME) introduces it
)

// lead is what stands before a name: its kind, where the region starts, and the bracket or
// quote opened right before the name (0 for none).
type lead struct {
	kind   leadKind
	start  int
	opener string
	tag    bool // the name opens a tag: <read_file …>
}

// openers are the brackets and quotes a call may stand in at the start of its line.
var openers = []string{"[", "(", "`", "\"", "'", "“", "‘", "„"}

// closerOf is the closer matching each opener.
var closerOf = map[string]string{"[": "]", "(": ")", "`": "`", "\"": "\"", "'": "'", "“": "”", "‘": "’", "„": "“"}

// leadOf reads the line before the name at text[at].
func leadOf(text string, at int) lead {
	// a recipient glued to the name: to=functions.read, <function=read_file, name=bash
	if at >= 2 && text[at-1] == '=' && isIdentByte(text[at-2]) {
		k := at - 1
		for k > 0 && isIdentByte(text[k-1]) && at-k < 32 {
			k--
		}
		if recipient(text, k, strings.ToLower(text[k:at-1])) {
			if k > 0 && text[k-1] == '<' {
				k--
			}
			return lead{kind: leadMarker, start: k}
		}
		return lead{kind: leadProse}
	}
	if at > 0 && text[at-1] == '<' { // a tag named after the tool: <read_file><path>…
		return lead{kind: leadMarker, start: at - 1, tag: true}
	}
	k, opener := at, ""
	for k > 0 && at-k < salvageLeadMax {
		if c := text[k-1]; c == ' ' || c == '\t' {
			k--
			continue
		}
		o := openerBefore(text, k)
		if o == "" {
			break
		}
		if opener == "" {
			opener = o
		}
		k -= len(o)
	}
	if m, ok := markupRunBefore(text, k); ok {
		return lead{kind: leadMarker, start: m, opener: opener}
	}
	if k == 0 || text[k-1] == '\n' || text[k-1] == '\r' {
		return lead{kind: leadLine, start: k, opener: opener}
	}
	return lead{kind: leadProse}
}

// recipientKeys name the tool a call goes to: <function=N>, name=N, tool=N.
var recipientKeys = map[string]bool{"function": true, "name": true, "tool": true, "tool_name": true, "recipient": true}

// harmonyWords end the header before a harmony recipient (docs/ARCHITECTURE.md's harmony
// format: <|start|>assistant<|channel|>commentary to=functions.N), the role and channel left
// when the special tokens between them are lost.
var harmonyWords = []string{"analysis", "commentary", "final", "assistant", "user", "developer", "system", "tool"}

// recipient reports whether key= ending at text[k] introduces a tool name: a recipient key, or
// to= after a harmony header word (glued to whatever precedes it) or at a line's start; "send
// it to=functions.bash" in a sentence is not one.
func recipient(text string, k int, key string) bool {
	if key != "to" {
		return recipientKeys[key]
	}
	j := backOver(text, k, " \t")
	if j == 0 || text[j-1] == '\n' {
		return true
	}
	if _, ok := markupTokenBefore(text, j); ok {
		return true
	}
	word := strings.ToLower(text[max(0, j-16):j])
	for _, w := range harmonyWords {
		if strings.HasSuffix(word, w) {
			return true
		}
	}
	return false
}

// openerBefore is the opener ending at text[k], or "".
func openerBefore(text string, k int) string {
	for _, o := range openers {
		if strings.HasSuffix(text[:k], o) {
			return o
		}
	}
	return ""
}

// inlineTags are HTML tags prose is formatted with: a name after one is still in a sentence.
var inlineTags = map[string]bool{"a": true, "b": true, "i": true, "u": true, "s": true, "em": true, "strong": true,
	"code": true, "kbd": true, "tt": true, "span": true, "mark": true, "sub": true, "sup": true, "small": true,
	"br": true, "p": true, "li": true, "td": true, "th": true, "tr": true, "div": true, "q": true}

// markupRunBefore reports whether call markup ends at text[k] (spaces aside), and where the
// run of markup tokens there starts.
func markupRunBefore(text string, k int) (int, bool) {
	start, found := k, false
	for n := 0; n < 16 && k-start < salvageLeadMax; n++ { // a bounded run: no rescans
		j := backOver(text, start, " \t\r\n")
		m, ok := markupTokenBefore(text, j)
		if !ok {
			break
		}
		start, found = m, true
	}
	return start, found
}

// markupTokenBefore is the start of the markup token ending at text[j]: a tag (<tool_call>,
// </think>, <|channel|>, <｜DSML｜…>) other than inline HTML, or an upper-case [TOKEN].
func markupTokenBefore(text string, j int) (int, bool) {
	if j == 0 {
		return 0, false
	}
	floor := max(0, j-64)
	switch text[j-1] {
	case '>':
		lt := strings.LastIndexByte(text[floor:j-1], '<')
		if lt < 0 {
			return 0, false
		}
		lt += floor
		inner := text[lt+1 : j-1]
		if inner == "" || strings.ContainsAny(inner, "\n<") {
			return 0, false
		}
		name := strings.TrimPrefix(inner, "/")
		if end := strings.IndexAny(name, " \t="); end >= 0 {
			name = name[:end]
		}
		if inlineTags[strings.ToLower(name)] {
			return 0, false
		}
		return lt, true
	case ']':
		lb := strings.LastIndexByte(text[floor:j-1], '[')
		if lb < 0 {
			return 0, false
		}
		lb += floor
		inner := strings.TrimPrefix(text[lb+1:j-1], "/")
		if len(inner) < 2 || !onlyRunes(inner, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") {
			return 0, false
		}
		return lb, true
	}
	return 0, false
}

// trail checks what follows a payload ending at end on its line (up to limit, the next name):
// closers, markup and end-of-turn tokens go with the call; after them the line must end, hold
// at most one stray word after a call markup introduced (strict: none), or the region must
// close the bracket opened before its name.
// It returns where the call's region ends.
func trail(text string, end, limit int, l lead, strict bool) (int, bool) {
	i, first := end, ""
	for i < limit {
		j := skipOver(text, i, " \t\r")
		if j >= limit {
			i = j
			break
		}
		if c := closerAt(text, j); c != "" {
			if first == "" {
				first = c
			}
			i = j + len(c)
			continue
		}
		if m := markupAt(text, j, limit); m > j {
			if first == "" {
				first = "<"
			}
			i = m
			continue
		}
		break
	}
	if (l.opener == "[" || l.opener == "(") && first == closerOf[l.opener] && i < limit && !isSpace(text[i]) {
		// [read_file(path="a")]I am reading…: the special tokens around the bracket were
		// stripped and the answer glued on; a space then words is a sentence about the call
		return i, true
	}
	lineEnd := min(limit, i+salvageLeadMax) // the words of a long line's head say enough
	if nl := strings.IndexByte(text[i:lineEnd], '\n'); nl >= 0 {
		lineEnd = i + nl
	}
	// one stray word may follow a call markup introduced (harmony's "{…} code"), none else
	words := asciiWords(text[i:lineEnd])
	if words == 0 || !strict && words == 1 && l.kind == leadMarker {
		return i, true
	}
	return 0, false
}

// closerAt is the bracket, quote or fence that closes a region at text[j], or "".
func closerAt(text string, j int) string {
	if strings.HasPrefix(text[j:], "```") {
		return "```"
	}
	for _, c := range []string{")", "]", "}", "\"", "'", "`", "”", "’", "“", "/>", ">"} {
		if strings.HasPrefix(text[j:], c) {
			return c
		}
	}
	return ""
}

// markupAt returns the end of the markup token at text[j] (a tag, possibly cut off at the end
// of its line as in "</tool_", a [/TOKEN] or [TOKEN], an end-of-turn token), or j for none.
func markupAt(text string, j, limit int) int {
	switch text[j] {
	case '<':
		k := j + 1
		for k < limit && k-j < 64 && text[k] != '>' && text[k] != '<' && text[k] != '\n' {
			k++
		}
		if k < limit && text[k] == '>' {
			return k + 1
		}
		if k-j > 1 && (k >= limit || text[k] == '\n') && text[j+1] == '/' {
			return k // a closing tag cut off at the end of its line
		}
	case '[':
		k := strings.IndexByte(text[j:min(limit, j+34)], ']')
		if k > 1 && onlyRunes(strings.TrimPrefix(text[j+1:j+k], "/"), "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") {
			return j + k + 1
		}
	}
	for _, tok := range endTokens {
		if strings.HasPrefix(text[j:], tok) {
			return j + len(tok)
		}
	}
	return j
}

// asciiWords counts the tokens of s holding two ASCII letters in a row: the sign of a
// sentence, or of attributes a tag left unread (onclick=x>).
func asciiWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		for i := 1; i < len(f); i++ {
			if isLetter(f[i-1]) && isLetter(f[i]) {
				n++
				break
			}
		}
	}
	return n
}

func isLetter(c byte) bool { c |= 0x20; return c >= 'a' && c <= 'z' }

// trailLimit is where the words after a call stop counting: where the next call's marked
// region starts (to=functions.read right after a call belongs to the next one) or where the
// next call of a list starts, else the text's end (the line's end bounds it in trail).
func trailLimit(text string, rest []occurrence, end int) int {
	n := nextAfter(text, rest, end)
	if listed(text, end, n) {
		return n // the next call of a list
	}
	if n < len(text) {
		if l := leadOf(text, n); l.kind == leadMarker && l.start >= end {
			return l.start
		}
	}
	return len(text)
}

// wholeFences drops the calls inside a fenced block that holds anything else: a code sample
// that calls open("x") among other lines is code, not a call.
// blocks are text's fenced blocks (fenceBlocks), read once per reply by Salvage.
func wholeFences(text string, blocks []fenceBlock, spans []span) []span {
	if len(spans) == 0 || len(blocks) == 0 {
		return spans
	}
	var out []span
	for _, sp := range spans {
		keep := true
		for _, b := range blocks {
			if sp.start >= b.start && sp.start < b.end && !allCovered(text, b.start, b.end, spans) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, sp)
		}
	}
	return out
}

// fenceBlock is a fenced block's body [start, end) and its info string.
type fenceBlock struct {
	start, end int
	lang       string
}

// fenceBlocks returns the fenced blocks of text, an unclosed last fence running to the end.
func fenceBlocks(text string) []fenceBlock {
	var out []fenceBlock
	open := -1
	lang := ""
	for i := 0; i < len(text); {
		nl := strings.IndexByte(text[i:], '\n')
		lineEnd := len(text)
		if nl >= 0 {
			lineEnd = i + nl
		}
		if line := strings.TrimLeft(text[i:lineEnd], " "); strings.HasPrefix(line, "```") {
			if open < 0 {
				open, lang = min(lineEnd+1, len(text)), strings.ToLower(strings.TrimSpace(strings.Trim(line, "`")))
			} else {
				out = append(out, fenceBlock{open, i, lang})
				open = -1
			}
		}
		i = lineEnd + 1
	}
	if open >= 0 {
		out = append(out, fenceBlock{open, len(text), lang})
	}
	return out
}

// codeLangs are fence languages whose call syntax is the language's own: a name and its
// arguments there are code (open(path="a.go") in a Python sample), not a tool call. Only a
// {"name": …} wrapper object is read inside them.
var codeLangs = map[string]bool{"python": true, "py": true, "python3": true, "javascript": true, "js": true, "jsx": true,
	"typescript": true, "ts": true, "tsx": true, "go": true, "golang": true, "rust": true, "rs": true, "java": true,
	"kotlin": true, "c": true, "cpp": true, "c++": true, "csharp": true, "cs": true, "ruby": true, "rb": true, "php": true,
	"swift": true, "scala": true, "lua": true, "perl": true, "r": true, "julia": true, "haskell": true, "elixir": true,
	"sql": true, "html": true, "css": true, "sh": true, "bash": true, "shell": true, "zsh": true, "console": true,
	"powershell": true, "ps1": true, "bat": true, "cmd": true, "dart": true, "zig": true, "nim": true, "ocaml": true}

// inCodeFence reports whether text[at] lies in a fenced block of a programming language.
func inCodeFence(fences []fenceBlock, at int) bool {
	for _, f := range fences {
		if at >= f.start && at < f.end {
			return codeLangs[f.lang]
		}
	}
	return false
}

// allCovered reports whether every non-blank line of text[start:end] meets a span.
func allCovered(text string, start, end int, spans []span) bool {
	for i := start; i < end; {
		lineEnd := end
		if nl := strings.IndexByte(text[i:end], '\n'); nl >= 0 {
			lineEnd = i + nl
		}
		if strings.TrimSpace(text[i:lineEnd]) != "" {
			met := false
			for _, sp := range spans {
				if sp.start < lineEnd && sp.end > i {
					met = true
					break
				}
			}
			if !met {
				return false
			}
		}
		i = lineEnd + 1
	}
	return true
}
