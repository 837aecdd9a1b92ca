package textcall

import "strings"

// Hermes Agent renders a past call in its transcript as a line, and models that read such
// transcripts write the line back instead of calling (hermes-studio#942, MiniMax-M2.7):
//
//	[Calling tool: terminal with arguments: {"command": "free -h"}]
//	[Calling tool: search_files]
//	<parameter name="pattern">TODO</parameter>
//	</invoke>
//
// The second form is the line followed by invoke-style parameters (the <invoke name=…>
// opener replaced by the line); a closing </invoke> and </minimax:tool_call> after them go
// with the call. The line is an explicit marker, so no Known name is needed.

const transcriptOpen = "[Calling tool: "

func scanTranscript(text string, sc scanCtx) []span {
	opens := newFinder(text, transcriptOpen)
	var out []span
	for pos := 0; ; {
		start := opens.at(pos)
		if start < 0 {
			return out
		}
		nameStart := start + len(transcriptOpen)
		nameEnd := nameStart
		for nameEnd < len(text) && nameEnd-nameStart <= 128 && isNameByte(text[nameEnd]) {
			nameEnd++
		}
		name := text[nameStart:nameEnd]
		pos = nameEnd
		if !plausibleName(name) {
			continue
		}
		if call, end, ok := transcriptWithArguments(text, name, nameEnd); ok {
			out = append(out, span{start: start, end: end, calls: []Call{call}})
			pos = end
			continue
		}
		if strings.HasPrefix(text[nameEnd:], "]") {
			if pairs, raw, end := transcriptParameters(text, nameEnd+1); len(pairs) > 0 {
				out = append(out, span{start: start, end: end, calls: []Call{{
					Name: name, Args: objectOf(pairs), Raw: raw, Format: FormatTranscript,
				}}})
				pos = end
			}
		}
	}
}

// transcriptWithArguments reads " with arguments: {…}]" after the tool's name at i.
func transcriptWithArguments(text, name string, i int) (Call, int, bool) {
	const with = " with arguments: "
	if !strings.HasPrefix(text[i:], with) {
		return Call{}, 0, false
	}
	a := i + len(with)
	if a >= len(text) || text[a] != '{' {
		return Call{}, 0, false
	}
	end, ok := matchJSON(text, a)
	if !ok || end >= len(text) || text[end] != ']' {
		return Call{}, 0, false
	}
	return newCall(name, text[a:end], FormatTranscript), end + 1, true
}

// transcriptParameters reads the <parameter name="k">v</parameter> lines from i, and the
// closing tags of the form they stand in for.
func transcriptParameters(text string, i int) (pairs []kv, raw string, end int) {
	const open, closeTag = "<parameter", "</parameter>"
	start := skipSpace(text, i)
	end = i
	for at := start; strings.HasPrefix(text[at:], open); at = skipSpace(text, end) {
		attrs, rest, ok := strings.Cut(text[at+len(open):], ">")
		if !ok {
			break
		}
		value, _, closed := strings.Cut(rest, closeTag)
		if !closed {
			break
		}
		pairs = append(pairs, kv{attribute(asciiQuotes(attrs), "name"), tagValue(value)})
		end = at + len(open) + len(attrs) + 1 + len(value) + len(closeTag)
	}
	if len(pairs) == 0 {
		return nil, "", i
	}
	raw = strings.TrimSpace(text[start:end])
	for _, tag := range []string{"</invoke>", "</minimax:tool_call>"} {
		if at := skipSpace(text, end); strings.HasPrefix(text[at:], tag) {
			end = at + len(tag)
		}
	}
	return pairs, raw, end
}

// typographicQuotes are the curly quotes a chat UI or a model writes for straight ones.
var typographicQuotes = strings.NewReplacer("“", `"`, "”", `"`, "„", `"`, "‘", "'", "’", "'")

// asciiQuotes turns typographic quotes into the ASCII ones JSON and attributes need.
func asciiQuotes(s string) string {
	if !strings.ContainsAny(s, "“”„‘’") {
		return s
	}
	return typographicQuotes.Replace(s)
}
