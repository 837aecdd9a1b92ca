package textcall

import "strings"

// Cline's and Roo Code's XML tool use with its brackets lost, the tags written one a line
// with their '<' or '</' dropped (Roo-Code#7156, Qwen3-Coder through an OpenAI-compatible
// provider):
//
//	read_file>
//	args>
//	<file>
//	<path>main.gopath>
//	</file>
//	args>
//	read_file>
//
// A line that is only a Known tool's name and '>' opens the call; the next line that is the
// same (or with its '/' or '</' kept) closes it. Between them each tag line is an opener when
// its tag is not the one open, a closer when it is, and a value line's trailing KEY> (or /KEY>)
// closes the KEY its line opened. The rebuilt body must then read as argument tags
// (xmlTagArgs), so prose with '>' in it stays prose.

// mangledLinesMax bounds how many lines a mangled call may span.
const mangledLinesMax = 64

func scanMangledXMLTag(text string, sc scanCtx) []span {
	var out []span
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		name, ok := bareTagLine(text[start:end])
		if ok && !strings.HasPrefix(strings.TrimSpace(text[start:end]), "<") && sc.accepts(name) {
			if s, ok := mangledCall(text, start, end, name); ok {
				out = append(out, s)
				start = s.end
				continue
			}
		}
		start = end + 1
	}
	return out
}

// lineEnd is the index of the line break ending the line at start, or len(text).
func lineEnd(text string, start int) int {
	if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
		return start + i
	}
	return len(text)
}

// bareTagLine reads a line that is only a tag with '<', '/' or both possibly lost: its name.
func bareTagLine(line string) (string, bool) {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "<")
	t = strings.TrimPrefix(t, "/")
	name, ok := strings.CutSuffix(t, ">")
	return name, ok && plausibleName(name) && !strings.ContainsAny(name, ":.")
}

// mangledCall rebuilds the call whose opening line is text[start:end].
func mangledCall(text string, start, end int, name string) (span, bool) {
	var body strings.Builder
	var stack []string
	pos := end + 1
	for n := 0; n < mangledLinesMax && pos < len(text); n++ {
		le := lineEnd(text, pos)
		line := strings.TrimSpace(text[pos:le])
		if line == "" {
			pos = le + 1
			continue
		}
		if tag, ok := bareTagLine(line); ok {
			switch {
			case tag == name && len(stack) == 0:
				args, ok := xmlTagArgs(body.String())
				if !ok {
					return span{}, false
				}
				return span{start: start, end: le, calls: []Call{{Name: name, Args: args, Raw: strings.TrimSpace(body.String()), Format: FormatXMLTag}}}, true
			case len(stack) > 0 && stack[len(stack)-1] == tag:
				stack = stack[:len(stack)-1]
				body.WriteString("</" + tag + ">\n")
			case strings.HasPrefix(line, "</") || strings.HasPrefix(line, "/"):
				return span{}, false // a closer of a tag that is not open
			default:
				stack = append(stack, tag)
				body.WriteString("<" + tag + ">\n")
			}
		} else if key, value, ok := mangledValueLine(line); ok {
			body.WriteString("<" + key + ">" + value + "</" + key + ">\n")
		} else {
			return span{}, false
		}
		pos = le + 1
	}
	return span{}, false
}

// mangledValueLine reads <KEY>VALUE</KEY> with the closer's '<' or '</' possibly lost.
func mangledValueLine(line string) (key, value string, ok bool) {
	rest, ok := strings.CutPrefix(line, "<")
	if !ok {
		return "", "", false
	}
	key, rest, ok = strings.Cut(rest, ">")
	if !ok || !plausibleName(key) {
		return "", "", false
	}
	closer := key + ">"
	value, ok = strings.CutSuffix(rest, closer)
	if !ok {
		return "", "", false
	}
	value = strings.TrimSuffix(strings.TrimSuffix(value, "/"), "<")
	return key, value, !strings.ContainsAny(value, "<>")
}
