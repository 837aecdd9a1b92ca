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

// toolCallLine reads "NAME for [KEY ]'VALUE'[ because …]".
func toolCallLine(s string) (Call, bool) {
	name, rest, ok := strings.Cut(s, " for ")
	if !ok || !plausibleName(name) {
		return Call{}, false
	}
	if q, _, found := strings.Cut(rest, " because "); found {
		rest = q
	}
	rest = strings.TrimSpace(rest)
	key := ""
	if i := strings.IndexByte(rest, ' '); i > 0 && !isQuote(rest[0]) {
		key, rest = rest[:i], strings.TrimSpace(rest[i+1:])
		if !plausibleName(key) {
			return Call{}, false
		}
	}
	if len(rest) < 2 || !isQuote(rest[0]) || rest[len(rest)-1] != rest[0] {
		return Call{}, false
	}
	value := rest[1 : len(rest)-1]
	if strings.IndexByte(value, rest[0]) >= 0 {
		return Call{}, false // several quoted values: a description, not one argument
	}
	quoted := quoteJSON(value)
	call := Call{Name: name, Raw: string(quoted), Format: FormatToolCallLine}
	if key != "" {
		call.Args = objectOf([]kv{{key, quoted}})
		call.Raw = key + " " + rest
	}
	return call, true
}

func isQuote(c byte) bool { return c == '\'' || c == '"' || c == '`' }
