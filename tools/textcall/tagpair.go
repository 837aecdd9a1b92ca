package textcall

import (
	"encoding/json"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Tag-pair, attribute and fused forms (issue 20): a call's name and its arguments in two
// sibling tags, as attributes, or as JSON whose separators became '=':
//
//	<function-name>read_file</function-name><arguments>{"path": "a.go"}</arguments>
//	<tool>read_file</tool><args>{"path": "a.go"}</args>
//	<tool_call><name>read_file</name><parameter=path>a.go</parameter></tool_call>
//	name="read_file" parameters="{"path": "a.go"}"      name=read_file arguments={"path": "a.go"}
//	{"function="read_file", "path="a.go"}               {"name="bash", "arguments="{"command": "ls"}"}
//
// None carries a call token, so each counts only when its name is Known and its arguments are
// complete; the name tag must be followed (white space apart) by the arguments, so a sentence
// that mentions <tool>bash</tool> stays prose.

var (
	nameTags = []string{"function-name", "function_name", "tool_name", "tool", "name", "function"}
	argTags  = []string{"arguments", "args", "parameters", "params", "input"}
)

// tagPairNameMax bounds a name tag's content.
const tagPairNameMax = 128

func scanTagPairs(text string, sc scanCtx) []span {
	var out []span
	w := newTagPairWork(text, sc.accepts)
	for pos := 0; pos < len(text) && w.budget > 0; {
		k := strings.IndexByte(text[pos:], '<')
		if k < 0 {
			break
		}
		open := pos + k
		calls, end, ok := w.at(open)
		if !ok {
			pos = open + 1
			continue
		}
		start := open
		if b := backOver(text, open, " \t\r\n"); b >= len(hermesOpen) && text[b-len(hermesOpen):b] == hermesOpen {
			start = b - len(hermesOpen)
		}
		if a := skipSpace(text, end); strings.HasPrefix(text[a:], hermesClose) {
			end = a + len(hermesClose)
		}
		out = append(out, span{start: start, end: end, calls: calls})
		pos = end
	}
	return out
}

// tagPairWork is one text's tag-pair reading: the closing tags' finders (each searches the
// text once) and the bytes left to examine.
type tagPairWork struct {
	text    string
	accepts func(name string) bool
	finders map[string]*finder
	budget  int
}

func newTagPairWork(text string, accepts func(string) bool) *tagPairWork {
	return &tagPairWork{text: text, accepts: accepts, finders: map[string]*finder{}, budget: workBudget(text)}
}

// find is the first occurrence of tok at or after from.
func (w *tagPairWork) find(tok string, from int) int {
	f := w.finders[tok]
	if f == nil {
		f = newFinder(w.text, tok)
		w.finders[tok] = f
	}
	return f.at(from)
}

// at reads "<NAMETAG>name</NAMETAG>" at text[open], its name accepted, and the arguments right
// after it: an argument tag holding a JSON object, or Qwen3-Coder <parameter=k> tags.
func (w *tagPairWork) at(open int) ([]Call, int, bool) {
	text := w.text
	tag := ""
	for _, t := range nameTags {
		if strings.HasPrefix(text[open+1:], t+">") {
			tag = t
			break
		}
	}
	if tag == "" {
		return nil, 0, false
	}
	nameStart := open + len(tag) + 2
	closeTag := "</" + tag + ">"
	c := strings.Index(text[nameStart:min(len(text), nameStart+tagPairNameMax+len(closeTag))], closeTag)
	if c < 0 {
		return nil, 0, false
	}
	name := strings.TrimSpace(text[nameStart : nameStart+c])
	if !plausibleName(name) || !w.accepts(name) {
		return nil, 0, false
	}
	at := skipSpace(text, nameStart+c+len(closeTag))
	if strings.HasPrefix(text[at:], qwenParamOpen) {
		end := at
		for strings.HasPrefix(text[end:], qwenParamOpen) {
			e := w.find(qwenParamClose, end)
			if e < 0 {
				return nil, 0, false
			}
			end = skipSpace(text, e+len(qwenParamClose))
		}
		if strings.HasPrefix(text[end:], qwenFunctionClose) {
			end += len(qwenFunctionClose)
		}
		w.budget -= end - at
		call, complete := qwenFunction(qwenFunctionOpen + name + ">" + text[at:end])
		if call == nil || !complete || call.Args == nil {
			return nil, 0, false
		}
		call.Format = FormatTagPair
		return []Call{*call}, backOver(text, end, " \t\r\n"), true
	}
	for _, t := range argTags {
		if !strings.HasPrefix(text[at:], "<"+t+">") {
			continue
		}
		body := at + len(t) + 2
		e := w.find("</"+t+">", body)
		if e < 0 {
			return nil, 0, false
		}
		w.budget -= e - body
		args := argsFromText(text[body:e])
		if args == nil {
			return nil, 0, false
		}
		return []Call{{Name: name, Args: args, Raw: strings.TrimSpace(text[body:e]), Format: FormatTagPair}}, e + len(t) + 3, true
	}
	return nil, 0, false
}

// attrCall matches name=N / name="N" then an arguments attribute opening an object, bare or
// inside quotes.
var attrCall = lazyre.New(`(?:^|[\s,;(])name\s*=\s*"?([A-Za-z0-9_.:-]{1,128})"?[\s,]+(?:arguments|parameters|args|input)\s*=\s*("?)\{`)

func scanAttributes(text string, sc scanCtx) []span {
	var out []span
	budget := workBudget(text)
	for pos := 0; pos < len(text) && budget > 0; {
		m := attrCall.FindStringSubmatchIndex(text[pos:])
		if m == nil {
			break
		}
		start, brace := pos+m[0], pos+m[1]-1
		if text[start] != 'n' {
			start++ // the separator before name= is not the call's
		}
		name, quoted := text[pos+m[2]:pos+m[3]], m[5] > m[4]
		end, closed := matchJSON(text, brace)
		budget -= end - brace
		var args json.RawMessage
		if closed {
			args = argsFromText(text[brace:end])
		}
		if !closed || args == nil || !sc.accepts(name) {
			pos = brace + 1
			continue
		}
		raw := text[brace:end]
		if quoted && end < len(text) && text[end] == '"' {
			end++
		}
		out = append(out, span{start: start, end: end, calls: []Call{{Name: name, Args: args, Raw: raw, Format: FormatTagPair}}})
		pos = end
	}
	return out
}

// fusedCall matches JSON whose ':' became '=' inside the key's quotes: {"function="N", "k="v"}.
var fusedCall = lazyre.New(`\{\s*"(?:function|name|tool)="([A-Za-z0-9_.:-]{1,128})"((?:\s*,\s*"[A-Za-z_][A-Za-z0-9_]{0,63}="(?:[^"\\]|\\.)*")*)\s*\}`)

// fusedPair is one "k="v" member of a fused object.
var fusedPair = lazyre.New(`"([A-Za-z_][A-Za-z0-9_]{0,63})="((?:[^"\\]|\\.)*)"`)

func scanFused(text string, sc scanCtx) []span {
	var out []span
	for _, m := range fusedCall.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		if !sc.accepts(name) {
			continue
		}
		var pairs []kv
		for _, p := range fusedPair.FindAllStringSubmatch(text[m[4]:m[5]], -1) {
			var value string
			if json.Unmarshal([]byte(`"`+p[2]+`"`), &value) != nil {
				value = p[2]
			}
			if p[1] == "arguments" || p[1] == "parameters" {
				if inner := argsFromInnerText(value); inner != nil {
					var obj map[string]json.RawMessage
					if json.Unmarshal(inner, &obj) == nil {
						for k, v := range obj {
							pairs = append(pairs, kv{k, v})
						}
						continue
					}
				}
			}
			pairs = append(pairs, kv{p[1], tagValue(value)})
		}
		out = append(out, span{start: m[0], end: m[1], calls: []Call{{Name: name, Args: objectOf(pairs), Raw: text[m[0]:m[1]], Format: FormatTagPair}}})
	}
	return out
}
