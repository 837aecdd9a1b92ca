package textcall

import "strings"

// SWE-agent's thought-and-action reply, as its default templates teach it: a DISCUSSION
// heading, the reasoning, then exactly one command in a code fence (its parsing docs,
// ThoughtActionParser):
//
//	DISCUSSION
//	First I'll look at the files in the current directory.
//	```
//	ls -a
//	```
//
// Models trained on its trajectories also write the command under a COMMAND heading with the
// fence lost (SWE-agent#297: "COMMAND\nopen /repo"). The DISCUSSION heading is the marker: a
// code block in any other reply stays prose. The command runs in SWE-agent's shell, so it is
// a bash command, except SWE-agent's own file commands, which are its tools (open, find_file,
// search_dir, search_file; tools/aliases_harness.go maps them), read with their documented
// positional arguments.

const (
	sweDiscussion = "DISCUSSION"
	sweCommand    = "COMMAND"
)

// sweCommands are SWE-agent's file commands with their positional argument names, in order.
var sweCommands = map[string][]string{
	"open":        {"path", "line_number"},
	"find_file":   {"file_name", "dir"},
	"search_dir":  {"search_term", "dir"},
	"search_file": {"search_term", "file"},
}

// sweCommandMax bounds the command read after a heading.
const sweCommandMax = 16 << 10

func scanSWEAgent(text string, _ scanCtx) []span {
	heads := newFinder(text, sweDiscussion)
	for pos := 0; ; {
		h := heads.at(pos)
		if h < 0 {
			return nil
		}
		pos = h + 1
		if !headingLine(text, h, len(sweDiscussion)) {
			continue
		}
		// The reply's one command is the first fence or COMMAND heading after the discussion.
		from := pastLine(text, h)
		if sp, ok := sweAction(text, from); ok {
			return []span{sp}
		}
		return nil
	}
}

// headingLine reports whether text[at:at+n] is a line of its own.
func headingLine(text string, at, n int) bool {
	if at > 0 && text[at-1] != '\n' {
		return false
	}
	end := at + n
	return end == len(text) || strings.TrimRight(text[end:pastLine(text, end)], " \t\r\n") == ""
}

// sweAction finds the command after the discussion starting at from: the first fence or
// COMMAND heading.
func sweAction(text string, from int) (span, bool) {
	for at := from; at < len(text); at = pastLine(text, at) {
		if strings.HasPrefix(text[at:], fence) {
			return sweFence(text, at)
		}
		if strings.TrimSpace(text[at:pastLine(text, at)]) != sweCommand {
			continue
		}
		start := pastLine(text, at)
		if strings.HasPrefix(strings.TrimLeft(text[start:], " \t\r\n"), fence) {
			sp, ok := sweFence(text, start)
			sp.start = at
			return sp, ok
		}
		end := start
		for end < len(text) && strings.TrimSpace(text[end:pastLine(text, end)]) != "" && end-start < sweCommandMax {
			end = pastLine(text, end)
		}
		cmd := strings.TrimSpace(text[start:end])
		if cmd == "" {
			return span{}, false
		}
		return span{start: at, end: end, calls: []Call{sweCall(cmd)}}, true
	}
	return span{}, false
}

// sweFence reads the fence opening at or after at (after blank lines) as the command.
func sweFence(text string, at int) (span, bool) {
	at = skipSpace(text, at)
	if !strings.HasPrefix(text[at:], fence) {
		return span{}, false
	}
	body := pastLine(text, at)
	lang := strings.TrimSpace(text[at+len(fence) : body])
	if lang != "" && lang != "bash" && lang != "sh" && lang != "shell" {
		return span{}, false
	}
	close := strings.Index(text[body:], fence)
	if close < 0 || close > sweCommandMax {
		return span{}, false
	}
	cmd := strings.TrimSpace(text[body : body+close])
	if cmd == "" {
		return span{}, false
	}
	return span{start: at, end: body + close + len(fence), calls: []Call{sweCall(cmd)}}, true
}

// sweCall is the call a command stands for: one of SWE-agent's file commands with its
// positional arguments named (under SWE-agent's own name, for name repair to map or refuse:
// never run as a shell command, where "open" is another program), or a bash command.
func sweCall(cmd string) Call {
	word, rest, _ := strings.Cut(cmd, " ")
	if names, ok := sweCommands[word]; ok && !strings.Contains(cmd, "\n") {
		args := shellWords(rest)
		if len(args) > 0 && len(args) <= len(names) {
			pairs := make([]kv, len(args))
			for i, a := range args {
				pairs[i] = kv{names[i], quoteJSON(a)}
			}
			return Call{Name: word, Args: objectOf(pairs), Raw: cmd, Format: FormatSWEAgent}
		}
	}
	return Call{Name: "bash", Args: objectOf([]kv{{"command", quoteJSON(cmd)}}), Raw: cmd, Format: FormatSWEAgent}
}

// shellWords splits a one-line argument list the way SWE-agent's shell does: blanks separate
// words, single or double quotes group them.
func shellWords(s string) []string {
	var words []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words, in = append(words, b.String()), false
				b.Reset()
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words
}
