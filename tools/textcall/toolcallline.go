package textcall

import "strings"

// Gemini CLI's system prompt shows the model its tool calls as one bracketed line in the
// example interactions (packages/core/src/core/prompts.ts in google-gemini/gemini-cli):
//
//	[tool_call: read_file for absolute_path '/path/to/tests/test_auth.py']
//	[tool_call: list_directory for path '/path/to/project']
//	[tool_call: run_shell_command for 'node server.js &' because it must run in the background]
//
// Models driven by that prompt through its forks for other providers (easy-llm-cli#57) write
// the line back instead of calling. The line is an explicit marker, so no Known name is
// needed, but it must stand on its own line and read exactly as above: the tool's name, "for",
// then one quoted value, named by the word before it or positional, optionally followed by a
// "because …" reason. The descriptive lines of the same examples ("[tool_call: write_file or
// replace to apply the refactoring to 'src/auth.py']") stay prose. A positional value is kept
// raw (Args nil) for the tool layer to give to the tool's one required string argument.

const (
	toolCallLineOpen = "[tool_call: "
	toolCallLineMax  = 4 << 10 // the longest line read as a call
)

func scanToolCallLines(text string, sc scanCtx) []span {
	opens := newFinder(text, toolCallLineOpen)
	var out []span
	for pos := 0; ; {
		start := opens.at(pos)
		if start < 0 {
			return out
		}
		pos = start + len(toolCallLineOpen)
		lineEnd := strings.IndexByte(text[pos:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += pos
		}
		line := strings.TrimRight(text[pos:lineEnd], " \t\r")
		end := pos + len(line)
		// Whatever this line holds, no later open on it starts a line: go on after it, so
		// each byte is looked at once.
		pos = lineEnd
		if len(line) > toolCallLineMax || !strings.HasSuffix(line, "]") || !lineEdge(text, start, end) {
			continue
		}
		if call, ok := toolCallLine(line[:len(line)-1]); ok {
			out = append(out, span{start: start, end: end, calls: []Call{call}})
		}
	}
}

// toolCallLine reads "NAME for|with [KEY[:] ]'VALUE'[ tail]". The prompts' examples (Gemini
// CLI's and its translations and forks) follow the value with a reason ("because it must run
// in the background", "to get current state", "，因為需要背景執行"); models add "with KEY: 'V'"
// clauses for the tool's other arguments (qwen-code#7177: "with description: '…'"). A
// clause of that shape in the tail is an argument beside a named value (beside a positional
// one, which the tool layer gives to the tool's one required argument, it is dropped with
// the reason); the rest of the tail is the reason.
func toolCallLine(s string) (Call, bool) {
	name, rest, ok := strings.Cut(s, " ")
	if !ok || !plausibleName(name) {
		return Call{}, false
	}
	verb, rest, _ := strings.Cut(rest, " ")
	if verb != "for" && verb != "with" {
		return Call{}, false
	}
	key, value, tail, ok := quotedClause(rest)
	if !ok || key == "" && verb == "with" {
		return Call{}, false
	}
	quoted := quoteJSON(value)
	call := Call{Name: name, Raw: string(quoted), Format: FormatToolCallLine}
	var pairs []kv
	if key != "" {
		pairs = append(pairs, kv{key, quoted})
	}
	for tail != "" {
		before, clause, found := strings.Cut(" "+tail, " with ")
		if !found {
			break
		}
		if opensQuote(before) {
			return Call{}, false // several quoted values outside clauses: a description
		}
		k, v, after, ok := quotedClause(clause)
		if !ok || k == "" {
			return Call{}, false
		}
		pairs, tail = append(pairs, kv{k, quoteJSON(v)}), after
	}
	if opensQuote(" " + tail) {
		return Call{}, false
	}
	if key != "" { // a positional value stays raw, for the tool's one required string argument
		call.Args, call.Raw = objectOf(pairs), strings.TrimSpace(rest)
	}
	return call, true
}

// quotedClause reads "[KEY[:] ]'VALUE'" at the start of s: the value ends at the next quote of
// its kind, and what follows it must not continue a word. tail is the text after the value.
func quotedClause(s string) (key, value, tail string, ok bool) {
	s = strings.TrimLeft(s, " ")
	if s != "" && !isQuote(s[0]) {
		i := strings.IndexByte(s, ' ')
		if i <= 0 {
			return "", "", "", false
		}
		key, s = strings.TrimSuffix(s[:i], ":"), strings.TrimLeft(s[i+1:], " ")
		if !plausibleName(key) {
			return "", "", "", false
		}
	}
	if len(s) < 2 || !isQuote(s[0]) {
		return "", "", "", false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", "", "", false
	}
	value, tail = s[1:1+end], s[2+end:]
	if tail != "" && isNameByte(tail[0]) {
		return "", "", "", false // a quote inside a word: not the value's end
	}
	return key, value, strings.TrimSpace(tail), true
}

// opensQuote reports whether s holds a quote that opens a quoted value (after a blank), as
// an apostrophe inside a word ("it's") does not.
func opensQuote(s string) bool {
	for _, q := range []string{" '", " \"", " `"} {
		if strings.Contains(s, q) {
			return true
		}
	}
	return false
}

func isQuote(c byte) bool { return c == '\'' || c == '"' || c == '`' }
