package textcall

import (
	"encoding/json"
	"strings"
)

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

// continueCallLabel is the name label written in Gemma's own call syntax, "call:NAME:"
// (gemma4 under Continue, ollama#18275): the model keeps the BEGIN_ARG groups it was shown and
// names the tool the way it was trained to.
const continueCallLabel = "call:"

// continueName reads the block's first line as its name label; gemma reports the call: label.
func continueName(line string) (name string, gemma, ok bool) {
	line = strings.TrimSpace(line)
	if name, ok := strings.CutPrefix(line, continueToolName); ok {
		return strings.TrimSpace(name), false, true
	}
	if name, ok := strings.CutPrefix(line, continueCallLabel); ok {
		return strings.TrimSpace(strings.TrimSuffix(name, ":")), true, true
	}
	return "", false, false
}

// continueToolCall reads a ```tool fence's body in Continue's labelled form; nil when it is not.
// A lone group with no key (BEGIN_ARG: and nothing after it) is the bare value of the tool's
// one argument: the call carries it as Raw for argument repair to place.
func continueToolCall(body string) []Call {
	lines := strings.Split(strings.TrimSpace(body), "\n")
	name, _, ok := continueName(lines[0])
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
		pairs = append(pairs, kv{strings.TrimSpace(key), tagValue(dropGemmaThought(strings.Join(value, "\n")))})
	}
	if len(pairs) == 1 && pairs[0].key == "" {
		var bare string
		if json.Unmarshal(pairs[0].value, &bare) == nil {
			return []Call{{Name: name, Raw: bare, Format: FormatFenced}}
		}
	}
	return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(body), Format: FormatFenced}}
}

// Gemma 4's thinking span, which its chat template opens and closes around the model's
// thoughts; one written inside a value is the model thinking, not the value.
const (
	gemmaThoughtOpen  = "<|channel>"
	gemmaThoughtClose = "<channel|>"
)

// dropGemmaThought removes the thinking spans written inside a value.
func dropGemmaThought(v string) string {
	if !strings.Contains(v, gemmaThoughtOpen) {
		return v
	}
	var b strings.Builder
	for {
		i := strings.Index(v, gemmaThoughtOpen)
		if i < 0 {
			break
		}
		j := strings.Index(v[i:], gemmaThoughtClose)
		if j < 0 {
			break
		}
		b.WriteString(v[:i])
		v = v[i+j+len(gemmaThoughtClose):]
	}
	b.WriteString(v)
	return b.String()
}

// scanContinueLines reads Continue's labelled form written without its ```tool fence, as
// models drop a format's wrapper: a TOOL_NAME: line at the start of a line, then only
// BEGIN_ARG … END_ARG groups (blank lines between them). The labels are the marker, but
// the name must be Known or at least one argument group must follow it, so a lone
// "TOOL_NAME: x" line in prose stays prose. A group left open at the end of the text is cut
// off.
func scanContinueLines(text string, sc scanCtx) []span {
	names, gemmaNames, fences := newFinder(text, continueToolName), newFinder(text, continueCallLabel), newFinder(text, fence)
	fenced, fenceFrom := false, 0
	var out []span
	for pos := 0; ; {
		start := firstOf(pos, names, gemmaNames)
		if start < 0 {
			return out
		}
		pos = start + len(continueCallLabel)
		if start > 0 && text[start-1] != '\n' {
			continue
		}
		_, gemma, _ := continueName(text[start:pastLine(text, start)])
		if gemma && !nextLineOpensGroup(text, start) {
			continue // Gemma's own call:NAME{…} is gemmabare.go's
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

// nextLineOpensGroup reports whether the line after the one holding i is a BEGIN_ARG line.
func nextLineOpensGroup(text string, i int) bool {
	next := pastLine(text, i)
	return strings.HasPrefix(strings.TrimLeft(text[next:min(len(text), next+64)], " \t"), continueBeginArg)
}
