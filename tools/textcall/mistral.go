package textcall

import "strings"

// Mistral, from mistral-common's tokenizer versions and vLLM's mistral parser: before v11
//
//	[TOOL_CALLS] [{"name": "read_file", "arguments": {"path": "a.go"}}]
//
// and from v11 (Mistral Small 3.1+, Devstral, Magistral) one token per call:
//
//	[TOOL_CALLS]read_file[ARGS]{"path": "a.go"}
//
// optionally with [CALL_ID]id before [ARGS]; [ARGS] itself is sometimes left out. The
// tokenizer artifact of namedjson.go (a few stray tokens between the name and its object,
// each with no ASCII letter outside brackets: "▁", "<unk>", "ассистент") is read here too,
// on the call's own line:
//
//	[TOOL_CALLS]read_file<unk>{"path": "a.go"}      [TOOL_CALLS]bash ▁▁ {"command": "ls"}

const (
	mistralToken  = "[TOOL_CALLS]"
	mistralArgs   = "[ARGS]"
	mistralCallID = "[CALL_ID]"
)

func scanMistral(text string, sc scanCtx) []span {
	tokens := newFinder(text, mistralToken)
	var out []span
	for pos := 0; ; {
		start := tokens.at(pos)
		if start < 0 {
			return out
		}
		sp, ok := mistralCall(text, start)
		if sp.partial {
			return append(out, sp)
		}
		if ok {
			out = append(out, sp)
		}
		pos = max(sp.end, start+len(mistralToken))
	}
}

// mistralCall reads the call(s) after the [TOOL_CALLS] token at start.
func mistralCall(text string, start int) (span, bool) {
	i := skipSpace(text, start+len(mistralToken))
	sp := span{start: start, end: i}
	if i == len(text) {
		sp.partial = true
		return sp, false
	}
	if text[i] == '[' || text[i] == '{' {
		end, ok := matchJSON(text, i)
		sp.end = end
		if !ok {
			// the list's closing ']' dropped after whole calls, as Granite's (hermes.go)
			if list, whole := listShortOfItsBracket(text[i:]); whole {
				sp.calls = jsonCallsIn(list, FormatMistral)
				return sp, len(sp.calls) > 0
			}
			sp.partial = true
			return sp, false
		}
		sp.calls = jsonCallsIn(text[i:end], FormatMistral)
		return sp, len(sp.calls) > 0
	}
	nameEnd := i
	for nameEnd < len(text) && isNameByte(text[nameEnd]) {
		nameEnd++
	}
	name := text[i:nameEnd]
	j := nameEnd
	if strings.HasPrefix(text[j:], mistralCallID) {
		j += len(mistralCallID)
		for j < len(text) && text[j] != '[' && text[j] != '{' {
			j++
		}
	}
	j = skipSpace(text, j)
	if strings.HasPrefix(text[j:], mistralArgs) {
		j = skipSpace(text, j+len(mistralArgs))
	}
	if j == len(text) {
		sp.end, sp.partial = j, true
		return sp, false
	}
	if text[j] != '{' {
		j = afterStrayTokens(text, j)
	}
	if j == len(text) || text[j] != '{' || !plausibleName(name) {
		sp.end = nameEnd
		return sp, false
	}
	end, ok := matchJSON(text, j)
	sp.end = end
	if !ok {
		sp.partial = true
		return sp, false
	}
	sp.calls = []Call{newCall(name, text[j:end], FormatMistral)}
	return sp, true
}

// strayTokensMax is how many stray tokens may stand between a name and its object.
const strayTokensMax = 3

// afterStrayTokens skips one to strayTokensMax stray tokens (strayToken) on the line at i and
// returns where the object that follows them opens; i itself when anything else stands there.
func afterStrayTokens(text string, i int) int {
	end := min(len(text), i+strayLineMax)
	if nl := strings.IndexByte(text[i:end], '\n'); nl >= 0 {
		end = i + nl
	}
	open := strings.IndexByte(text[i:end], '{')
	if open < 0 {
		return i
	}
	fields := strings.Fields(text[i : i+open])
	if len(fields) == 0 || len(fields) > strayTokensMax {
		return i
	}
	for _, tok := range fields {
		if !strayToken(tok) {
			return i
		}
	}
	return i + open
}
