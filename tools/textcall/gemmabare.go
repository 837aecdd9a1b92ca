package textcall

import "strings"

// Gemma's call body without its wrapper tokens: a server that strips special tokens leaves
//
//	call:read_file{path:<|"|>a.go<|"|>}         (Gemma 4, <|tool_call> … <tool_call|> gone)
//	call:bash{command:<escape>ls<escape>}      (FunctionGemma)
//
// or one of the pair survives (an orphan <tool_call|> after the body). Without a marker the
// body counts only when its name is Known, "call:" starts a word, and the object is complete
// under Gemma's grammar (relaxedToJSON); the orphan closing token goes with the call. Inside a
// sentence (text before or after it on its line) it must also hold Gemma's quote token, which
// prose never writes: "use call:write_file{path:a.txt} to save" stays prose.

const gemmaCallPrefix = "call:"

func scanGemmaBare(text string, sc scanCtx) []span {
	var out []span
	budget := workBudget(text)
	for pos := 0; pos < len(text) && budget > 0; {
		k := strings.Index(text[pos:], gemmaCallPrefix)
		if k < 0 {
			break
		}
		start := pos + k
		nameStart := start + len(gemmaCallPrefix)
		j := nameStart
		for j < len(text) && j-nameStart <= pyNameMax && isNameByte(text[j]) && text[j] != ':' {
			j++
		}
		name := text[nameStart:j]
		if start > 0 && isIdentByte(text[start-1]) || j >= len(text) || text[j] != '{' || !sc.accepts(name) {
			pos = nameStart
			continue
		}
		quote := gemmaQuote
		if !strings.Contains(text[j:min(len(text), j+pyNameMax)], gemmaQuote) && strings.Contains(text[j:min(len(text), j+pyNameMax)], funcGemmaEscape) {
			quote = funcGemmaEscape
		}
		converted, end, complete := relaxedToJSON(text, j, quote)
		budget -= end - j
		if !complete {
			pos = j + 1
			continue
		}
		call := Call{Name: name, Args: argsFromText(converted), Raw: text[j:end], Format: FormatGemma}
		if call.Args == nil {
			pos = j + 1
			continue
		}
		after := skipSpace(text, end)
		for _, tok := range []string{gemmaClose, funcGemmaClose} {
			if strings.HasPrefix(text[after:], tok) {
				end = after + len(tok)
				break
			}
		}
		if !ownLine(text, start, end) && !strings.Contains(call.Raw, quote) {
			pos = j + 1 // inside a sentence and without Gemma's own quote token: prose
			continue
		}
		out = append(out, span{start: start, end: end, calls: []Call{call}})
		pos = end
	}
	return out
}

// ownLine reports whether text[start:end] stands alone on its line(s): only white space
// before it since the last line break, and after it up to the next.
func ownLine(text string, start, end int) bool {
	return strings.TrimSpace(text[strings.LastIndexByte(text[:start], '\n')+1:start]) == "" && lineEndsAt(text, end)
}
