package textcall

import (
	"encoding/json"
	"html"
	"slices"
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
//	<tool_call name="read_file" arguments='{"path": "a.go"}'/>   parameters="{\"path\": \"a.go\"}"
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
			args = childTagArgs(text[body:e]) // <parameters><path>a.go</path></parameters>
		}
		if args == nil {
			return nil, 0, false
		}
		return []Call{{Name: name, Args: args, Raw: strings.TrimSpace(text[body:e]), Format: FormatTagPair}}, e + len(t) + 3, true
	}
	return nil, 0, false
}

// childTagArgs reads an argument tag whose body is one child tag per argument, as Cline's XML
// tool use writes them: <args><path>a.go</path></args>. It is nil unless every byte is a child.
func childTagArgs(body string) json.RawMessage {
	t := strings.TrimSpace(body)
	if !strings.HasPrefix(t, "<") || !strings.HasSuffix(t, ">") {
		return nil
	}
	pairs, ok := childTags(t)
	if !ok || len(pairs) == 0 {
		return nil
	}
	return objectOf(pairs)
}

// attrCall matches name=N / name="N" then an arguments attribute opening an object, bare or
// inside quotes.
var attrCall = lazyre.New(`(?:^|[\s,;(])name\s*=\s*["']?([A-Za-z0-9_.:-]{1,128})["']?[\s,]+(?:arguments|parameters|args|input)\s*=\s*(["']?)\{`)

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
		name, quote := text[pos+m[2]:pos+m[3]], text[pos+m[4]:pos+m[5]]
		end, closed := matchJSON(text, brace)
		budget -= end - brace
		var args json.RawMessage
		if closed {
			args = argsFromText(text[brace:end])
		}
		if quote != "" && (args == nil || end == len(text) || text[end] != quote[0] || escapedText(text[brace:end])) {
			// an attribute value escaped as XML or JSON text: parameters="{\"k\": \"v\"}",
			// parameters="{&quot;k&quot;: …}"
			end, args = escapedAttribute(text, brace, quote[0])
			budget -= end - brace
			closed = args != nil
		}
		if !closed || args == nil || !sc.accepts(name) {
			pos = brace + 1
			continue
		}
		raw := text[brace:end]
		if quote != "" && end < len(text) && text[end] == quote[0] {
			end++
		}
		start, end = enclosingTag(text, start, end)
		out = append(out, span{start: start, end: end, calls: []Call{{Name: name, Args: args, Raw: raw, Format: FormatTagPair}}})
		pos = end
	}
	return out
}

// fusedOpen is an object whose name member is fused: its ':' became '=' inside the key's
// quotes, {"function="N", … (the other members fused or not); or an object whose name member
// is whole and a later member is fused, {"name": "N", "arguments="{…}"} (group 2 is then
// set).
var fusedOpen = lazyre.New(`\{\s*"(?:function|name|tool)(?:="|("\s*:\s*"))([A-Za-z0-9_.:-]{1,128})"`)

// scanFused reads each object opening with a fused name member, whole (unfuseJSON): its
// arguments member, or else its other members, are the call's arguments.
func scanFused(text string, sc scanCtx) []span {
	var out []span
	budget := workBudget(text)
	for pos := 0; pos < len(text) && budget > 0; {
		m := fusedOpen.FindStringSubmatchIndex(text[pos:])
		if m == nil {
			break
		}
		start, name := pos+m[0], text[pos+m[4]:pos+m[5]]
		if !sc.accepts(name) {
			pos += m[1]
			continue
		}
		sp, cost, ok := fusedCall(text, start, name, m[2] < 0)
		budget -= cost
		if !ok {
			pos += m[1]
			continue
		}
		out = append(out, sp)
		pos = sp.end
	}
	return out
}

// fusedCall reads the call in the fused object at start, named name; nameFused says its name
// member is the fused one. An object with no fused member is not read (a whole object is the
// JSON scanners' to read, or a record that is no call).
func fusedCall(text string, start int, name string, nameFused bool) (sp span, cost int, ok bool) {
	end, obj, cost := fusedObject(text, start)
	if obj == nil || !nameFused && unfuseJSON(text[start:end]) == text[start:end] {
		return span{}, cost, false
	}
	var args json.RawMessage
	for _, k := range argKeys {
		if v, ok := obj[k]; ok {
			args = argsFromValue(v)
			break
		}
	}
	if args == nil {
		var pairs []kv
		for k, v := range obj {
			if k != "function" && k != "name" && k != "tool" {
				pairs = append(pairs, kv{k, v})
			}
		}
		slices.SortFunc(pairs, func(a, b kv) int { return strings.Compare(a.key, b.key) })
		args = objectOf(pairs)
	}
	return span{start: start, end: end, calls: []Call{{Name: name, Args: args, Raw: text[start:end], Format: FormatTagPair}}}, cost, true
}

// fusedWindow bounds a fused object, and fusedCloses the closing braces tried as its end: its
// quotes do not pair as JSON's, so the end is the first '}' up to which it reads once unfused.
const (
	fusedWindow = 4 << 10
	fusedCloses = 32
)

// fusedObject reads the fused object at start: where it ends, its members, and the bytes read.
func fusedObject(text string, start int) (end int, obj map[string]json.RawMessage, cost int) {
	limit := min(len(text), start+fusedWindow)
	for at, tries := start, 0; tries < fusedCloses; tries++ {
		c := strings.IndexByte(text[at:limit], '}')
		if c < 0 {
			break
		}
		end = at + c + 1
		cost += end - start
		if json.Unmarshal([]byte(unfuseJSON(text[start:end])), &obj) == nil {
			return end, obj, cost
		}
		obj, at = nil, end
	}
	return 0, nil, cost + 1
}

// escapedAttribute reads the quoted attribute value that opens at brace and runs to the first
// unescaped quote, its object written with \" or XML entities; args is nil when it is not one.
func escapedAttribute(text string, brace int, quote byte) (end int, args json.RawMessage) {
	end = brace
	for end < len(text) && text[end] != quote {
		if text[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(text) {
		return len(text), nil
	}
	value := text[brace:end]
	if strings.Contains(value, "&") {
		value = html.UnescapeString(value)
	} else if strings.Contains(value, `\"`) || strings.Contains(value, `\'`) {
		var s string
		if json.Unmarshal([]byte(`"`+strings.ReplaceAll(value, `\'`, "'")+`"`), &s) != nil {
			return end, nil
		}
		value = s
	}
	return end, argsFromText(value)
}

// escapedText says whether an attribute's object is written as escaped text.
func escapedText(value string) bool {
	return strings.Contains(value, "&quot;") || strings.Contains(value, "&#34;") || strings.Contains(value, `\"`)
}

// attrTagMax bounds the tag name an attribute call may sit in.
const attrTagMax = 32

// enclosingTag widens an attribute call to the tag it is written in, when it fills one:
// <tool_call name=… arguments=…/>, <function name=… parameters=…></function>.
func enclosingTag(text string, start, end int) (int, int) {
	b := backOver(text, start, " \t")
	lt := strings.LastIndexByte(text[max(0, b-attrTagMax-1):b], '<')
	if lt < 0 {
		return start, end
	}
	lt += max(0, b-attrTagMax-1)
	tag := text[lt+1 : b]
	if !plausibleName(tag) || strings.ContainsAny(tag, " \t\n") {
		return start, end
	}
	a := skipSpace(text, end)
	switch {
	case strings.HasPrefix(text[a:], "/>"):
		return lt, a + 2
	case strings.HasPrefix(text[a:], ">"):
		a++
		if c := skipSpace(text, a); strings.HasPrefix(text[c:], "</"+tag+">") {
			a = c + len(tag) + 3
		}
		return lt, a
	}
	return start, end
}
