package textcall

import (
	"encoding/json"
	"html"
	"slices"
	"strings"
)

// Kimi-K3's XTML, from the reference parser SGLang's gateway ports (lightseekorg/smg
// crates/tool_parser/src/parsers/kimi_k3.rs): the calls sit in a "tools" channel after the
// "response" channel that holds the answer text, every marker spelled with the literal
// <|open|>, <|close|> and <|sep|> strings (blanks allowed inside a marker):
//
//	<|open|>response<|sep|>Reading it.<|close|>response<|sep|>
//	<|open|>tools<|sep|>
//	<|open|>call tool="read_file" index="0"<|sep|>
//	<|open|>argument key="path" type="string"<|sep|>a.go<|close|>argument<|sep|>
//	<|close|>call<|sep|>
//	<|close|>tools<|sep|>
//
// A type="string" value is the raw text; any other type is JSON, or the raw text when it is
// not. Attribute values are HTML-escaped (&quot;, &amp;). The channel markers go with the
// calls; the response text stays prose.

// FormatKimiK3 is Kimi-K3's XTML.
const FormatKimiK3 Format = "kimi_k3"

const (
	xtmlOpen  = "<|open|>"
	xtmlClose = "<|close|>"
	xtmlSep   = "<|sep|>"
	// xtmlAttrMax bounds how far a marker's attributes may run before its <|sep|>.
	xtmlAttrMax = 256
)

// xtmlMarker reads the marker at text[i] (after its <|open|> or <|close|> token) for word:
// it returns the attributes and the index past <|sep|>, or ok false.
func xtmlMarker(text string, i int, word string) (attrs string, end int, ok bool) {
	j := skipSpace(text, i)
	if !strings.HasPrefix(text[j:], word) {
		return "", 0, false
	}
	j += len(word)
	limit := min(len(text), j+xtmlAttrMax)
	sep := strings.Index(text[j:limit], xtmlSep)
	if sep < 0 {
		return "", 0, false
	}
	attrs = text[j : j+sep]
	if attrs != "" && !isSpace(attrs[0]) {
		return "", 0, false // "callx": another word
	}
	return strings.TrimSpace(attrs), j + sep + len(xtmlSep), true
}

// xtmlBare reads a marker without attributes (a channel's, or a closing one) at text[i], after
// its <|open|> or <|close|> token, and returns the index past its <|sep|>.
func xtmlBare(text string, i int, word string) (int, bool) {
	j := skipSpace(text, i)
	if !strings.HasPrefix(text[j:], word) {
		return 0, false
	}
	j = skipSpace(text, j+len(word))
	if !strings.HasPrefix(text[j:], xtmlSep) {
		return 0, false
	}
	return j + len(xtmlSep), true
}

// xtmlAttr returns the value of key="…" in attrs, unescaped.
func xtmlAttr(attrs, key string) string {
	for rest := attrs; ; {
		i := strings.Index(rest, key+`="`)
		if i < 0 {
			return ""
		}
		if i > 0 && isIdentByte(rest[i-1]) {
			rest = rest[i+len(key):]
			continue
		}
		v := rest[i+len(key)+2:]
		if q := strings.IndexByte(v, '"'); q >= 0 {
			return html.UnescapeString(v[:q])
		}
		return ""
	}
}

func scanKimiK3(text string, _ scanCtx) []span {
	opens := newFinder(text, xtmlOpen)
	closes := newFinder(text, xtmlClose)
	var out, wrappers []span
	for pos := 0; ; {
		at := opens.at(pos)
		if at < 0 {
			break
		}
		pos = at + len(xtmlOpen)
		for _, w := range []string{"tools", "response"} {
			if end, ok := xtmlBare(text, pos, w); ok {
				wrappers = append(wrappers, span{start: at, end: end})
				pos = end
			}
		}
		attrs, body, ok := xtmlMarker(text, pos, "call")
		if !ok {
			continue
		}
		name := xtmlAttr(attrs, "tool")
		end, bodyEnd := -1, -1
		for c := closes.at(body); c >= 0; c = closes.at(c + len(xtmlClose)) {
			if e, ok := xtmlBare(text, c+len(xtmlClose), "call"); ok {
				bodyEnd, end = c, e
				break
			}
		}
		if end < 0 {
			out = append(out, span{start: at, end: len(text), partial: true})
			pos = len(text)
			break
		}
		if plausibleName(name) {
			args, ok := xtmlArguments(text[body:bodyEnd])
			if ok {
				out = append(out, span{start: at, end: end, calls: []Call{{Name: name, Args: args, Raw: text[body:bodyEnd], Format: FormatKimiK3}}})
			}
		}
		pos = end
	}
	if len(out) == 0 {
		return nil
	}
	for c := closes.at(0); c >= 0; c = closes.at(c + len(xtmlClose)) {
		for _, w := range []string{"tools", "response", "message"} {
			if end, ok := xtmlBare(text, c+len(xtmlClose), w); ok {
				wrappers = append(wrappers, span{start: c, end: end})
			}
		}
	}
	return mergeFree(out, sortedSpans(wrappers))
}

// xtmlArguments reads the <|open|>argument key="K" type="T"<|sep|>V<|close|>argument<|sep|>
// elements of a call's body; ok is false when the body holds anything else but blanks.
func xtmlArguments(body string) (json.RawMessage, bool) {
	var pairs []kv
	for i := skipSpace(body, 0); i < len(body); i = skipSpace(body, i) {
		if !strings.HasPrefix(body[i:], xtmlOpen) {
			return nil, false
		}
		attrs, v, ok := xtmlMarker(body, i+len(xtmlOpen), "argument")
		if !ok {
			return nil, false
		}
		end, next := -1, -1
		for from := v; ; {
			c := strings.Index(body[from:], xtmlClose)
			if c < 0 {
				return nil, false
			}
			c += from
			if e, ok := xtmlBare(body, c+len(xtmlClose), "argument"); ok {
				end, next = c, e
				break
			}
			from = c + len(xtmlClose)
		}
		key := xtmlAttr(attrs, "key")
		if key == "" {
			return nil, false
		}
		value := body[v:end]
		raw := quoteJSON(value)
		if xtmlAttr(attrs, "type") != "string" && json.Valid([]byte(strings.TrimSpace(value))) {
			raw = json.RawMessage(strings.TrimSpace(value))
		}
		pairs = append(pairs, kv{key, raw})
		i = next
	}
	return objectOf(pairs), true
}

// sortedSpans sorts wrapper spans by start and drops any that overlap an earlier one.
func sortedSpans(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var out []span
	for _, s := range spans {
		if len(out) == 0 || s.start >= out[len(out)-1].end {
			out = append(out, s)
		}
	}
	return out
}
