package textcall

import (
	"strings"
)

// The XML-ish invoke form used by DeepSeek V3.2 (with its ｜DSML｜ tag prefix), MiniMax-M2
// (inside <minimax:tool_call>) and models trained on Claude-style transcripts (inside
// <function_calls>):
//
//	<function_calls>
//	<invoke name="read_file">
//	<parameter name="path" string="true">a.go</parameter>
//	</invoke>
//	</function_calls>
//
// string="false" marks a JSON value; otherwise values stay strings except obvious JSON
// arrays and objects.

// invokePrefixes are the tag-name prefixes the form is written with.
var invokePrefixes = []string{"", "｜DSML｜"}

func scanInvoke(text string, sc scanCtx) []span {
	var calls, wrappers []span
	for _, p := range invokePrefixes {
		calls = mergeFree(calls, scanTagged(text, "<"+p+"invoke", "</"+p+"invoke>", func(body string) ([]Call, bool) {
			return invokeBody(body, p)
		}))
		wrappers = append(wrappers, tokenSpans(text, "<"+p+"function_calls>", "</"+p+"function_calls>")...)
	}
	wrappers = append(wrappers, tokenSpans(text, "<minimax:tool_call>", "</minimax:tool_call>", "<｜end▁of▁sentence｜>")...)
	return callsOrNothing(calls, wrappers)
}

// invokeBody reads ` name="NAME">…<parameter …>…` (the text after "<invoke").
func invokeBody(body, prefix string) ([]Call, bool) {
	attrs, rest, ok := strings.Cut(body, ">")
	if !ok {
		return nil, false
	}
	name := attribute(attrs, "name")
	if !plausibleName(name) {
		return nil, true
	}
	open, close := "<"+prefix+"parameter", "</"+prefix+"parameter>"
	var pairs []kv
	complete := true
	for _, part := range strings.Split(rest, open)[1:] {
		pattrs, value, ok := strings.Cut(part, ">")
		if !ok {
			complete = false
			break
		}
		value, _, complete = strings.Cut(value, close)
		v := tagValue(value)
		if attribute(pattrs, "string") == "false" {
			if decoded, ok := looseValue(value); ok {
				v = compactJSON(decoded)
			}
		}
		pairs = append(pairs, kv{attribute(pattrs, "name"), v})
	}
	return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(rest), Format: FormatInvoke}}, complete
}

// attribute returns the value of key="…" (or key='…' or key=bare) in a tag's attribute text.
func attribute(attrs, key string) string {
	for rest := attrs; ; {
		i := strings.Index(rest, key+"=")
		if i < 0 {
			return ""
		}
		if i > 0 && isNameByte(rest[i-1]) {
			rest = rest[i+len(key):]
			continue
		}
		v := rest[i+len(key)+1:]
		if v != "" && (v[0] == '"' || v[0] == '\'') {
			if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
				return strings.TrimSpace(v[1 : 1+end])
			}
			return strings.TrimSpace(v[1:])
		}
		if end := strings.IndexAny(v, " \t\n/>"); end >= 0 {
			v = v[:end]
		}
		return strings.TrimSpace(v)
	}
}
