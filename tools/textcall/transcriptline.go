package textcall

import "strings"

// Other harnesses render a past call as a one-line record too, and models that read such a
// history write the record back instead of calling (FormatTranscript, like Hermes Agent's):
//
//	[Called function "terminal" with args: {"command":"whoami"}]
//	[Tool Call: read (ID: call_read_youtube_skill)] Arguments: { "path": "a/SKILL.md" }
//
// The first is how Gemini narrates a call through an OpenAI-compatible proxy
// (BlockRunAI/ClawRouter#189), the second OpenClaw's record of a call (openclaw#851, Codex
// 5.2). Each record is an explicit marker, so no Known name is needed. A record whose
// arguments run to the end of the text is a cut-off call.

const (
	calledFunctionOpen = `[Called function "`
	toolCallRecordOpen = "[Tool Call: "
)

// transcriptLineMax bounds the "(ID: …)] Arguments: " stretch between a record's name and
// its arguments, so a stray "[Tool Call: " never makes the scan look far ahead.
const transcriptLineMax = 256

func scanTranscriptLines(text string, sc scanCtx) []span {
	called, record := newFinder(text, calledFunctionOpen), newFinder(text, toolCallRecordOpen)
	var out []span
	for pos := 0; ; {
		start := firstOf(pos, called, record)
		if start < 0 {
			return out
		}
		var s span
		var ok bool
		if strings.HasPrefix(text[start:], calledFunctionOpen) {
			s, ok = calledFunction(text, start)
			pos = start + len(calledFunctionOpen)
		} else {
			s, ok = toolCallRecord(text, start)
			pos = start + len(toolCallRecordOpen)
		}
		if !ok {
			continue
		}
		out = append(out, s)
		if s.partial {
			return out
		}
		pos = s.end
	}
}

// calledFunction reads `[Called function "NAME" with args: {…}]` at start.
func calledFunction(text string, start int) (span, bool) {
	nameStart := start + len(calledFunctionOpen)
	nameEnd := nameStart
	for nameEnd < len(text) && nameEnd-nameStart <= 128 && isNameByte(text[nameEnd]) {
		nameEnd++
	}
	const with = `" with args: `
	if !plausibleName(text[nameStart:nameEnd]) || !strings.HasPrefix(text[nameEnd:], with) {
		return span{}, false
	}
	return recordArguments(text, start, text[nameStart:nameEnd], nameEnd+len(with), "]")
}

// toolCallRecord reads `[Tool Call: NAME (ID: …)] Arguments: {…}` at start.
func toolCallRecord(text string, start int) (span, bool) {
	nameStart := start + len(toolCallRecordOpen)
	nameEnd := nameStart
	for nameEnd < len(text) && nameEnd-nameStart <= 128 && isNameByte(text[nameEnd]) {
		nameEnd++
	}
	if !plausibleName(text[nameStart:nameEnd]) {
		return span{}, false
	}
	limit := min(len(text), nameEnd+transcriptLineMax)
	closeAt := strings.IndexByte(text[nameEnd:limit], ']')
	if closeAt < 0 || strings.ContainsAny(text[nameEnd:nameEnd+closeAt], "\n[") {
		return span{}, false
	}
	after := skipSpace(text, nameEnd+closeAt+1)
	const arguments = "Arguments:"
	if !strings.HasPrefix(text[after:], arguments) {
		return span{}, false
	}
	return recordArguments(text, start, text[nameStart:nameEnd], skipSpace(text, after+len(arguments)), "")
}

// recordArguments reads the JSON object at a (and the closing token after it, if any) into
// the call named name. An object that runs to the end of the text makes a partial span.
func recordArguments(text string, start int, name string, a int, closing string) (span, bool) {
	if a >= len(text) || text[a] != '{' {
		return span{}, false
	}
	end, ok := matchJSON(text, a)
	if !ok {
		return span{start: start, end: len(text), partial: true}, true
	}
	call := newCall(name, text[a:end], FormatTranscript)
	if closing != "" {
		if !strings.HasPrefix(text[end:], closing) {
			return span{}, false
		}
		end += len(closing)
	}
	return span{start: start, end: end, calls: []Call{call}}, true
}
