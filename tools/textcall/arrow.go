package textcall

import (
	"encoding/json"
	"strings"
)

// MiniMax (M2.5, M2.7) sometimes writes a call as a bracketed block with Perl-hash arrows and
// command-line style arguments instead of calling (zeroclaw#4758, MiniMax 2.7; OpenFang#354):
//
//	[TOOL_CALL]
//	{tool => "shell", args => {
//	  --command echo "hello"
//	}}
//	[/TOOL_CALL]
//
// An argument is --KEY followed by its value up to the next --KEY (a colon or = after the key
// is allowed); a value that is one double-quoted string is unquoted, any other value is kept
// as written. The args may also be a JSON object ({"query": "x"}) or KEY => VALUE pairs. The
// block is an explicit marker, so no Known name is needed; a missing [/TOOL_CALL] ends the
// block at the next [TOOL_CALL] or the end of the text.

const (
	arrowOpen  = "[TOOL_CALL]"
	arrowClose = "[/TOOL_CALL]"
)

func scanArrow(text string, sc scanCtx) []span {
	return scanTagged(text, arrowOpen, arrowClose, arrowBody)
}

// arrowBody reads the {tool => …, args => …} records of one block.
func arrowBody(body string) (calls []Call, complete bool) {
	t := strings.TrimSpace(body)
	for t != "" {
		if t[0] != '{' {
			return calls, true
		}
		end, ok := matchJSON(t, 0)
		if !ok {
			return calls, false
		}
		if c, ok := arrowRecord(t[1 : end-1]); ok {
			calls = append(calls, c)
		}
		t = strings.TrimLeft(t[end:], " \t\r\n,}") // a stray extra } closes nothing
	}
	return calls, true
}

// arrowRecord reads `tool => "NAME", args => {…}` (the record without its braces).
func arrowRecord(rec string) (Call, bool) {
	rest, ok := arrowKey(rec, "tool")
	if !ok {
		return Call{}, false
	}
	name, rest := arrowName(rest)
	if !plausibleName(name) {
		return Call{}, false
	}
	rest = strings.TrimLeft(rest, " \t\r\n,")
	if rest == "" {
		return Call{Name: name, Args: emptyArgs, Format: FormatArrow}, true
	}
	rest, ok = arrowKey(rest, "args")
	if !ok || rest == "" || rest[0] != '{' {
		return Call{}, false
	}
	end, ok := matchJSON(rest, 0)
	if !ok {
		return Call{}, false
	}
	raw := strings.TrimSpace(rest[1 : end-1])
	if strings.HasPrefix(raw, `"`) && !strings.Contains(raw, "=>") {
		return newCall(name, rest[:end], FormatArrow), true
	}
	return Call{Name: name, Args: objectOf(arrowArgs(raw)), Raw: raw, Format: FormatArrow}, true
}

// arrowKey expects `key =>` at the start of s (after space) and returns what follows.
func arrowKey(s, key string) (string, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, key) {
		return "", false
	}
	s = strings.TrimSpace(s[len(key):])
	if !strings.HasPrefix(s, "=>") {
		return "", false
	}
	return strings.TrimSpace(s[2:]), true
}

// arrowName reads a quoted or bare name at the start of s.
func arrowName(s string) (name, rest string) {
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		if i := strings.IndexByte(s[1:], s[0]); i >= 0 {
			return s[1 : 1+i], s[2+i:]
		}
		return "", s
	}
	i := 0
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// arrowArgs reads --KEY VALUE arguments, or KEY => VALUE pairs when there is no --KEY.
func arrowArgs(raw string) []kv {
	var pairs []kv
	starts := dashKeys(raw)
	for i, at := range starts {
		end := len(raw)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		k := at + 2
		for k < end && isNameByte(raw[k]) && raw[k] != ':' {
			k++
		}
		value := strings.TrimSpace(raw[k:end])
		value = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(value, ":"), "="))
		pairs = append(pairs, kv{raw[at+2 : k], arrowValue(strings.TrimSuffix(value, ","))})
	}
	if len(pairs) > 0 {
		return pairs
	}
	for _, item := range strings.Split(raw, ",") {
		key, value, ok := strings.Cut(item, "=>")
		if key = strings.TrimSpace(key); ok && plausibleName(key) {
			pairs = append(pairs, kv{key, arrowValue(strings.TrimSpace(value))})
		}
	}
	return pairs
}

// dashKeys returns where each --KEY starts: at the start, at the start of a line, or right
// after a value that is one closed quoted string. A "--" inside an unquoted value (ls --all)
// or inside a quoted one is part of the value.
func dashKeys(raw string) []int {
	var at []int
	quoteEnd := -1 // where the last argument's quoted value ends, or -1
	for i := 0; i+2 < len(raw); i++ {
		if raw[i] != '-' || raw[i+1] != '-' || !isNameByte(raw[i+2]) || raw[i+2] == '-' {
			continue
		}
		line := backOver(raw, i, " \t")
		if line > 0 && raw[line-1] != '\n' && (quoteEnd < 0 || skipSpace(raw, quoteEnd) != i) {
			continue
		}
		at = append(at, i)
		if quoteEnd = quotedValueEnd(raw, i); quoteEnd > i {
			i = quoteEnd - 1
		}
	}
	return at
}

// quotedValueEnd returns the index past the argument's value when the value at "--KEY" (at
// i) opens with a double quote, else -1.
func quotedValueEnd(raw string, i int) int {
	k := i + 2
	for k < len(raw) && isNameByte(raw[k]) && raw[k] != ':' {
		k++
	}
	k = skipOver(raw, k, " \t:=")
	if k >= len(raw) || raw[k] != '"' {
		return -1
	}
	if end, ok := matchString(raw, k); ok {
		return end
	}
	return -1
}

// arrowValue unquotes a value that is one double-quoted string and keeps any other as text.
func arrowValue(v string) json.RawMessage {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		var s string
		if json.Unmarshal([]byte(v), &s) == nil {
			return quoteJSON(s)
		}
	}
	return quoteJSON(v)
}
