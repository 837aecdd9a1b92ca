package textcall

import (
	"encoding/json"
	"html"
	"strings"
)

// Calls written as one XML element whose attributes carry the name or the arguments:
//
//	<tool_call id="call_00_x" name="read_file">
//	{"path": "a.go"}
//	</tool_call>
//
//	<list_files path="src" recursive="false"/>
//
// The first is the Hermes tag with the name moved into an attribute and the arguments as the
// JSON body (DeepSeek V4 Pro in Memoh#435), or the invoke form's parameters under the tag
// (attrTagBody); the tag is the call marker, so any name counts.
// Under a <function> or <tool> tag the name must be Known. The second is the XML tool use
// that Cline, Roo Code and Kilo teach (<list_files><path>src</path>…</list_files>, xmltag.go)
// with each argument tag turned into an attribute (Olmo 3.1 in inferencer-feedback#74), the
// element self-closed, left open, or closed with nothing inside. It carries no marker: the tag
// must be a Known name (inside a marker too), every attribute a key="value" pair, and the element alone on its line,
// so HTML or prose that uses a tool's name as a tag stays prose.

// attrElementMax bounds the attribute text of one element.
const attrElementMax = 8 << 10

// nameAttrTags are the tags whose name attribute names the call, with whether the tag is a
// call marker of its own.
var nameAttrTags = []struct {
	tag    string
	marker bool
}{{"tool_call", true}, {"function_call", true}, {"function", false}, {"tool", false}}

func scanAttrTags(text string, sc scanCtx) []span {
	var out []span
	for _, t := range nameAttrTags {
		out = mergeFree(out, scanNameAttrTag(text, sc, t.tag, t.marker))
	}
	return mergeFree(out, scanArgAttrTags(text, sc))
}

// scanNameAttrTag reads <TAG … name="N" …>{json}</TAG>; the closer may be missing after the
// last element when its body is a whole object running to the end of the text.
func scanNameAttrTag(text string, sc scanCtx, tag string, marker bool) []span {
	opens, closes := newFinder(text, "<"+tag+" "), newFinder(text, "</"+tag+">")
	var out []span
	for pos := 0; ; {
		start := opens.at(pos)
		if start < 0 {
			return out
		}
		pos = start + 1
		attrsAt := start + len(tag) + 2
		gt := strings.IndexByte(text[attrsAt:min(len(text), attrsAt+attrElementMax)], '>')
		if gt < 0 {
			continue
		}
		attrs := text[attrsAt : attrsAt+gt]
		name := attribute(attrs, "name")
		if strings.HasSuffix(attrs, "/") || !plausibleName(name) || !marker && !sc.accepts(name) {
			continue
		}
		body, end := attrsAt+gt+1, len(text)
		bodyEnd, next := end, opens.at(attrsAt)
		switch c := closes.at(body); {
		case c >= 0 && (next < 0 || c < next):
			bodyEnd, end = c, c+len(tag)+3
		case next >= 0: // no closer before the next element: this one holds nothing
			continue
		}
		raw := strings.TrimSpace(text[body:bodyEnd])
		args := attrTagBody(raw, bodyEnd < len(text))
		if args == nil {
			continue
		}
		out = append(out, span{start: start, end: end, calls: []Call{{Name: name, Args: args, Raw: raw, Format: FormatTagPair}}})
		pos = end
	}
}

// attrTagBody reads the arguments in the body of a name-attribute element: a whole JSON
// object, or the invoke form's <parameter name="K">V</parameter> tags, or one tag per argument
// (<path>a.go</path>), the way the invoke form's bodies are read (invoke.go) under another tag:
// <function name="N"> as <invoke name="N">. Tag bodies count only when the element was closed.
// nil when the body is none of these.
func attrTagBody(raw string, closed bool) json.RawMessage {
	switch {
	case raw == "":
		return emptyArgs
	case raw[0] == '{':
		if e, ok := matchJSON(raw, 0); !ok || e != len(raw) {
			return nil
		}
		return argsFromText(raw)
	case raw[0] == '<' && closed:
		calls, complete := invokeBody(` name="args">`+raw, invokeForm{"invoke", "", "name"})
		if !complete || len(calls) != 1 || string(calls[0].Args) == "{}" {
			return nil
		}
		return calls[0].Args
	}
	return nil
}

// scanArgAttrTags reads <KNOWN k="v" …/> (or …>, or …></KNOWN>) standing alone on its line.
func scanArgAttrTags(text string, sc scanCtx) []span {
	var out []span
	for pos := 0; pos < len(text); {
		k := strings.IndexByte(text[pos:], '<')
		if k < 0 {
			break
		}
		start := pos + k
		pos = start + 1
		j := start + 1
		for j < len(text) && j-start <= xmlTagNameMax && isNameByte(text[j]) {
			j++
		}
		name := text[start+1 : j]
		if j >= len(text) || text[j] != ' ' || sc.opt.Known == nil || !sc.opt.Known(name) {
			continue
		}
		gt := strings.IndexByte(text[j:min(len(text), j+attrElementMax)], '>')
		if gt < 0 {
			continue
		}
		attrs, end := text[j:j+gt], j+gt+1
		if rest := skipOver(text, end, " \t"); strings.HasPrefix(text[rest:], "</"+name+">") {
			end = rest + len(name) + 3
		}
		pairs, ok := attributePairs(strings.TrimSuffix(strings.TrimRight(attrs, " \t"), "/"))
		if !ok || !lineEdge(text, start, end) {
			continue
		}
		out = append(out, span{start: start, end: end, calls: []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(attrs), Format: FormatXMLTag}}})
		pos = end
	}
	return out
}

// attributePairs reads a tag's attribute text as key="value" pairs (single or double
// quotes), entities decoded. ok is false unless the whole text is such pairs, at least one.
func attributePairs(s string) ([]kv, bool) {
	var pairs []kv
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return pairs, len(pairs) > 0
		}
		i := 0
		for i < len(s) && isNameByte(s[i]) {
			i++
		}
		if i == 0 || i+2 > len(s) || s[i] != '=' || !isQuote(s[i+1]) || s[i+1] == '`' {
			return nil, false
		}
		end := strings.IndexByte(s[i+2:], s[i+1])
		if end < 0 {
			return nil, false
		}
		pairs = append(pairs, kv{s[:i], quoteJSON(html.UnescapeString(s[i+2 : i+2+end]))})
		s = s[i+3+end:]
	}
}
