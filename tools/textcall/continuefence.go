package textcall

import "strings"

// Continue's tool fence for models without native tool calls (its system-message tools,
// core/tools/systemMessageTools): the name and each argument on labelled lines, each value
// between BEGIN_ARG and END_ARG:
//
//	```tool
//	TOOL_NAME: builtin_read_file
//	BEGIN_ARG: filepath
//	src/a.go
//	END_ARG
//	```
//
// A value is text; an obvious JSON array or object is decoded (tagValue). The fence is the
// call marker (scanFenced), so no Known name is needed.

const (
	continueToolName = "TOOL_NAME:"
	continueBeginArg = "BEGIN_ARG:"
	continueEndArg   = "END_ARG"
)

// continueToolCall reads a ```tool fence's body in Continue's labelled form; nil when it is not.
func continueToolCall(body string) []Call {
	lines := strings.Split(strings.TrimSpace(body), "\n")
	name, ok := strings.CutPrefix(strings.TrimSpace(lines[0]), continueToolName)
	name = strings.TrimSpace(name)
	if !ok || !plausibleName(name) {
		return nil
	}
	var pairs []kv
	for i := 1; i < len(lines); i++ {
		key, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), continueBeginArg)
		if !ok {
			if strings.TrimSpace(lines[i]) == "" {
				continue
			}
			return nil // text outside an argument: not this form
		}
		var value []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != continueEndArg; i++ {
			value = append(value, lines[i])
		}
		pairs = append(pairs, kv{strings.TrimSpace(key), tagValue(strings.Join(value, "\n"))})
	}
	return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(body), Format: FormatFenced}}
}

// scanContinueLines reads Continue's labelled form written without its ```tool fence, as
// models drop a format's wrapper: a TOOL_NAME: line at the start of a line, then only
// BEGIN_ARG … END_ARG groups (blank lines between them). The labels are the marker, but
// the name must be Known or at least one argument group must follow it, so a lone
// "TOOL_NAME: x" line in prose stays prose. A group left open at the end of the text is cut
// off.
func scanContinueLines(text string, sc scanCtx) []span {
	names, fences := newFinder(text, continueToolName), newFinder(text, fence)
	fenced, fenceFrom := false, 0
	var out []span
	for pos := 0; ; {
		start := names.at(pos)
		if start < 0 {
			return out
		}
		pos = start + len(continueToolName)
		if start > 0 && text[start-1] != '\n' {
			continue
		}
		for fenceAt := fences.at(fenceFrom); fenceAt >= 0 && fenceAt < start; fenceAt = fences.at(fenceFrom) {
			fenced, fenceFrom = !fenced, fenceAt+len(fence)
		}
		end, groups, open := continueBlockEnd(text, start)
		pos = max(pos, end)
		if open && !fenced {
			return append(out, span{start: start, end: len(text), partial: true})
		}
		calls := continueToolCall(text[start:end])
		if fenced || len(calls) != 1 || groups == 0 && !sc.accepts(calls[0].Name) {
			continue // inside a fence the fence's scanner decides: an example in ```text stays prose
		}
		calls[0].Format = FormatContinue
		out = append(out, span{start: start, end: end, calls: calls})
	}
}

// continueBlockEnd returns the end of the labelled block starting at the TOOL_NAME: line at
// start: after its last END_ARG line. open reports a BEGIN_ARG group that never ends.
func continueBlockEnd(text string, start int) (end, groups int, open bool) {
	end = pastLine(text, start)
	for at := end; at < len(text); {
		next := pastLine(text, at)
		line := strings.TrimSpace(text[at:next])
		switch {
		case line == "":
		case strings.HasPrefix(line, continueBeginArg):
			closer := -1
			if text[next-1] == '\n' {
				closer = strings.Index(text[next-1:], "\n"+continueEndArg)
			}
			if closer < 0 {
				if t := strings.TrimSpace(text[next:]); strings.HasSuffix(t, continueEndArg) {
					return len(text), groups + 1, false
				}
				return len(text), groups, true
			}
			next = pastLine(text, next+closer)
			end, groups = next, groups+1
		default:
			return end, groups, false
		}
		at = next
	}
	return end, groups, false
}

// pastLine returns the index just past the line break ending the line that holds i, or the
// text's end.
func pastLine(text string, i int) int {
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(text)
}
