package textcall

import "strings"

// A call written as one line of its name and key="value" attributes, the way a chat client
// shows a call it was meant to run, and models then write it themselves:
//
//	read_file file="c:\src\package.json"
//	Write with path="/tmp/hello.txt" content="hello"
//	bash command='ls -la' timeout="30"
//
// The line holds the call and nothing else (end-of-turn tokens aside), its name is Known, and
// every word after the name (and an optional "with") is a key="value" or key='value' pair, so
// a sentence that mentions a tool stays prose. Values are read as written: a backslash escapes
// only the quote that encloses the value (a Windows path keeps its backslashes), and which
// values are numbers is for argument repair in tools/ to say, from the schema.

// attrLineMax bounds the length of a line read as a call.
const attrLineMax = 64 << 10

func scanAttrLines(text string, sc scanCtx) []span {
	var out []span
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if end-start <= attrLineMax {
			if s, ok := attrLine(text, start, end, sc); ok {
				out = append(out, s)
			}
		}
		start = end + 1
	}
	return out
}

// attrLine reads the line text[from:to] as a call.
func attrLine(text string, from, to int, sc scanCtx) (span, bool) {
	i := skipOver(text, from, " \t")
	nameStart := i
	for i < to && isNameByte(text[i]) && text[i] != ':' {
		i++
	}
	name := text[nameStart:i]
	if i == nameStart || i >= to || text[i] != ' ' && text[i] != '\t' || !sc.accepts(name) {
		return span{}, false
	}
	i = skipOver(text, i, " \t")
	if strings.HasPrefix(text[i:to], "with ") {
		i = skipOver(text, i+len("with "), " \t")
	}
	var pairs []kv
	last := i
	for i < to {
		keyStart := i
		for i < to && isIdentByte(text[i]) {
			i++
		}
		if i == keyStart || i+1 >= to || text[i] != '=' || text[i+1] != '"' && text[i+1] != '\'' {
			break
		}
		key := text[keyStart:i]
		value, next, ok := attrValue(text, i+1, to)
		if !ok {
			return span{}, false
		}
		pairs = append(pairs, kv{key, quoteJSON(value)})
		last = next
		i = skipOver(text, next, " \t")
	}
	if len(pairs) == 0 || !endsLine(text[last:to]) {
		return span{}, false
	}
	return span{start: nameStart, end: last, calls: []Call{{
		Name: name, Args: objectOf(pairs), Raw: text[nameStart:last], Format: FormatAttrLine,
	}}}, true
}

// attrValue reads the quoted value opening at text[i] (its quote there); next is past it.
func attrValue(text string, i, to int) (value string, next int, ok bool) {
	q := text[i]
	var b strings.Builder
	for j := i + 1; j < to; j++ {
		switch {
		case text[j] == '\\' && j+1 < to && text[j+1] == q:
			b.WriteByte(q)
			j++
		case text[j] == q:
			return b.String(), j + 1, true
		default:
			b.WriteByte(text[j])
		}
	}
	return "", 0, false
}

// endsLine reports whether rest is only blanks and end-of-turn tokens.
func endsLine(rest string) bool {
	for {
		rest = strings.TrimLeft(rest, " \t\r")
		if rest == "" {
			return true
		}
		found := false
		for _, tok := range endTokens {
			if strings.HasPrefix(rest, tok) {
				rest, found = rest[len(tok):], true
				break
			}
		}
		if !found {
			return false
		}
	}
}

// attrLineBody reads a <tool_call> body that is one call in attribute form: the name, then
// key="value" pairs, as an element with or without its '<' and closed or not
// (`exec command="ls" />`, `<read_file path="a.go"/>`; OpenClaw in openclaw#33258). Inside the
// marker any name counts. An attribute that only repeats the name (tool="exec") is dropped.
func attrLineBody(t string) []Call {
	t = strings.TrimSpace(t)
	t = strings.TrimPrefix(t, "<")
	i := 0
	for i < len(t) && isNameByte(t[i]) && t[i] != ':' {
		i++
	}
	name := t[:i]
	if !plausibleName(name) || i >= len(t) || !isSpace(t[i]) {
		return nil
	}
	rest := strings.TrimRight(t[i:], " \t\r\n")
	if inner, ok := strings.CutSuffix(rest, "</"+name+">"); ok {
		rest = strings.TrimRight(inner, " \t\r\n")
	}
	rest = strings.TrimSuffix(strings.TrimSuffix(rest, ">"), "/")
	pairs, ok := attributePairs(rest)
	if !ok {
		return nil
	}
	kept := pairs[:0]
	for _, p := range pairs {
		if (p.key == "tool" || p.key == "name") && string(p.value) == string(quoteJSON(name)) {
			continue
		}
		kept = append(kept, p)
	}
	return []Call{{Name: name, Args: objectOf(kept), Raw: strings.TrimSpace(rest), Format: FormatAttrLine}}
}
