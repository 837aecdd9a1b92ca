package textcall

import (
	"slices"
	"strings"
)

// gpt-oss harmony, from OpenAI's harmony format guide (openai/harmony, cookbook "harmony"):
//
//	<|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a.go"}<|call|>
//
// The recipient may also sit before the channel ("assistant to=functions.x<|channel|>…"), the
// <|start|>assistant prefix is often missing and <|call|> is sometimes left out. A message
// without a to= recipient (analysis, final) is not a call and is left alone. Some servers strip
// the special tokens and leak the rest (Rapid-MLX#480), the recipient in the channel or, as
// the format guide also allows, in the role position:
//
//	commentary to=functions.get_weather json{"city":"Paris"}
//	assistant to=functions.get_weather commentary json{"city":"Paris"}

const (
	harmonyMessage = "<|message|>"
	harmonyCall    = "<|call|>"
	harmonyStart   = "<|start|>"
	harmonyChannel = "<|channel|>"
	// harmonyHeaderMax bounds how far back from <|message|> the header is looked for.
	harmonyHeaderMax = 256
)

// harmonyBoundaries end a message body (and so the header search of the next one).
var harmonyBoundaries = []string{harmonyCall, "<|end|>", "<|return|>", harmonyStart, harmonyChannel}

func scanHarmony(text string, sc scanCtx) []span {
	messages := newFinder(text, harmonyMessage)
	ends := make([]*finder, len(harmonyBoundaries))
	for i, tok := range harmonyBoundaries {
		ends[i] = newFinder(text, tok)
	}
	var out []span
	for pos := 0; ; {
		m := messages.at(pos)
		if m < 0 {
			return mergeFree(out, scanHarmonyStripped(text, sc))
		}
		body := m + len(harmonyMessage)
		start, name := harmonyHeader(text, max(pos, m-harmonyHeaderMax), m)
		if name == "" {
			pos = body
			continue
		}
		bodyEnd, end, called := len(text), len(text), false
		if e := firstOf(body, ends...); e >= 0 {
			bodyEnd, end = e, e
			if strings.HasPrefix(text[e:], harmonyCall) {
				end, called = e+len(harmonyCall), true
			}
		}
		args := text[body:bodyEnd]
		if !called && end == len(text) && !jsonComplete(args) {
			return append(out, span{start: start, end: end, partial: true})
		}
		out = append(out, span{start: start, end: end, calls: []Call{newCall(name, args, FormatHarmony)}})
		pos = end
	}
}

// strippedRecipient introduces a harmony call whose special tokens were stripped.
const strippedRecipient = "to=functions."

// harmonyStrayMax bounds the stray tokens read between a stripped recipient and its arguments
// object: gpt-oss leaks glitch tokens (runs of unrelated CJK, Georgian or Telugu text, a
// "commentary" spelled half in another script) between the header's parts when its special
// tokens are stripped (openclaw/docs' translated pages, several languages).
const harmonyStrayMax = 192

// harmonyStrayWords are the ASCII words a header holds between its recipient and its object;
// any other ASCII word counts against harmonyStrayOther.
var harmonyStrayWords = []string{"commentary", "analysis", "assistant", "constrain", "json", "code", "content", "message", "in"}

// harmonyStrayOther is how many other ASCII words stray tokens may hold: a sentence has more.
const harmonyStrayOther = 2

// scanHarmonyStripped reads "[commentary ]to=functions.NAME[ json|code]{…}": the recipient,
// then the arguments object after it, past a bounded run of stray tokens. A recipient in
// another namespace (gpt-oss's trained-in to=repo_browser.open_file, to=container.exec) counts
// after a header word and when its name is Known. Only a complete object counts.
func scanHarmonyStripped(text string, sc scanCtx) []span {
	var out []span
	f := newFinder(text, "to=")
	budget := workBudget(text) // unclosed objects would otherwise be matched to the end each
	for pos := 0; budget > 0; {
		at := f.at(pos)
		if at < 0 {
			return out
		}
		pos = at + len("to=")
		j := pos
		for j < len(text) && isNameByte(text[j]) {
			j++
		}
		name, ok := strippedName(text, at, text[pos:j], sc)
		if !ok {
			continue
		}
		k := skipSpace(text, j)
		// The recipient in the role position ("assistant to=functions.x commentary json{…}")
		// leaves the channel word between the name and the content type.
		for _, word := range []string{"commentary", "analysis"} {
			if strings.HasPrefix(text[k:], word) {
				k = skipSpace(text, k+len(word))
				break
			}
		}
		for _, word := range []string{"<|constrain|>json", "json", "code"} {
			if strings.HasPrefix(text[k:], word) {
				k = skipSpace(text, k+len(word))
				break
			}
		}
		if k < len(text) && text[k] != '{' {
			k = strayObject(text, k)
		}
		if k < 0 || k >= len(text) {
			continue
		}
		end, ok := matchJSON(text, k)
		budget -= end - k
		if !ok {
			continue
		}
		start := at
		for _, word := range []string{"commentary", "analysis", "assistant", "user"} {
			if w := strings.TrimRight(text[:at], " "); strings.HasSuffix(w, word) {
				start = len(w) - len(word)
				break
			}
		}
		out = append(out, span{start: start, end: end, calls: []Call{newCall(name, text[k:end], FormatHarmony)}})
		pos = end
	}
	return out
}

// strippedName reads the recipient written at text[at:] ("to=" then raw): functions.NAME, or
// a Known name right after a header word, in another namespace or none (to=read_file).
func strippedName(text string, at int, raw string, sc scanCtx) (string, bool) {
	if rest, ok := strings.CutPrefix(raw, strings.TrimPrefix(strippedRecipient, "to=")); ok {
		name := harmonyUnglue(rest, sc)
		return name, plausibleName(name)
	}
	if !afterHeaderWord(text, at) {
		return "", false
	}
	name := harmonyUnglue(raw, sc)
	return name, sc.opt.Known != nil && sc.opt.Known(name)
}

// afterHeaderWord reports whether a header word (a channel or role, glued or not) ends right
// before text[at].
func afterHeaderWord(text string, at int) bool {
	w := strings.TrimRight(text[:at], " \t")
	for _, word := range []string{"commentary", "analysis", "assistant"} {
		if strings.HasSuffix(w, word) {
			return true
		}
	}
	return false
}

// strayObject returns where the arguments object opens within harmonyStrayMax bytes of i, past
// stray tokens: no other recipient, at most one line break and few ASCII words other than
// the header's own. It returns -1 when there is none.
func strayObject(text string, i int) int {
	lines, other := 0, 0
	for j := i; j < len(text) && j-i < harmonyStrayMax; {
		switch c := text[j]; {
		case c == '{':
			return j
		case c == '\n':
			if lines++; lines > 1 {
				return -1
			}
		case strings.HasPrefix(text[j:], "to="), sentenceEnd(text, j):
			return -1
		case isASCIILetter(c):
			w := j
			for j < len(text) && (isASCIILetter(text[j]) || text[j] == '_') {
				j++
			}
			if !slices.Contains(harmonyStrayWords, text[w:j]) {
				if other++; other > harmonyStrayOther {
					return -1
				}
			}
			continue
		}
		j++
	}
	return -1
}

// sentenceEnd reports whether text[j] ends an ASCII sentence (". ", "!\n"): prose, not
// stray tokens.
func sentenceEnd(text string, j int) bool {
	return strings.IndexByte(".!?", text[j]) >= 0 && j+1 < len(text) && isSpace(text[j+1])
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// harmonyGlued are the header words that end up glued to the recipient when the tokens
// between them are stripped: the format guide's own example writes
// "to=functions.generate_file<|constrain|>json", and the role position "to=functions.x<|channel|>commentary".
var harmonyGlued = []string{"json", "code", "commentary", "analysis"}

// harmonyUnglue takes the header words glued to a stripped recipient off its end, only when
// the name as written is not a known tool and what remains is one.
func harmonyUnglue(name string, sc scanCtx) string {
	known := sc.opt.Known
	if known == nil || len(name) > pyNameMax || known(name) {
		return name
	}
	for trimmed := name; ; {
		cut := false
		for _, w := range harmonyGlued {
			if rest, ok := strings.CutSuffix(trimmed, w); ok && rest != "" {
				trimmed, cut = rest, true
				if known(trimmed) {
					return trimmed
				}
				break
			}
		}
		if !cut {
			return name
		}
	}
}

// harmonyHeader finds the recipient in the header text[from:m] and where the header starts.
func harmonyHeader(text string, from, m int) (start int, name string) {
	header := text[from:m]
	for _, tok := range []string{harmonyCall, "<|end|>", "<|return|>", harmonyMessage} {
		if i := strings.LastIndex(header, tok); i >= 0 {
			from += i + len(tok)
			header = text[from:m]
		}
	}
	to := strings.LastIndex(header, "to=")
	if to < 0 {
		return 0, ""
	}
	recipient := header[to+len("to="):]
	if i := strings.IndexAny(recipient, " \t\n<"); i >= 0 {
		recipient = recipient[:i]
	}
	name = stripNamespace(recipient, "functions.")
	if !plausibleName(name) {
		return 0, ""
	}
	start = from + to
	if i := strings.Index(header, "<|"); i >= 0 && from+i < start {
		start = from + i
	}
	// "assistant to=…" without <|start|>: the role word belongs to the header too.
	if w := strings.TrimRight(text[from:start], " "); strings.HasSuffix(w, "assistant") {
		start = from + len(w) - len("assistant")
	}
	return start, name
}
