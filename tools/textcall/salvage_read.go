package textcall

import (
	"encoding/json"
	"strings"
)

// The loose payload readers of Salvage. Each reads at text[i] and returns the arguments (a
// JSON object, a JSON string for a one-argument tool, or the raw text of an object cut off by
// the end of the reply, which tools/ repairs or refuses) and where the payload ends.

// gapWordsMax bounds the ASCII words between a marked name and its payload: a harmony
// header's channel and format words ("in commentary … json content"), not a sentence.
const gapWordsMax = 4

// payload is one reading of the text after a name.
type payload struct {
	args   string
	end    int
	strict bool // one bare string: nothing may follow it on its line
	attrs  bool // key="value" attributes
}

// searched charges the budget for a search of a window of n bytes that found its target at
// k (or none, k < 0).
func (s *salvager) searched(k, n int) {
	if k < 0 {
		k = n
	}
	s.budget -= k
}

// closesTag reports whether a tag's attributes end at text[i]: > or />, spaces aside.
func closesTag(text string, i int) bool {
	i = skipOver(text, i, " \t")
	return strings.HasPrefix(text[i:], ">") || strings.HasPrefix(text[i:], "/>")
}

// after reads the payload nearest after a name, scanning from from. Between them may stand white space (at
// most one line break), punctuation, non-ASCII tokens and markup; ASCII words only when markup
// or a recipient introduced the name.
func (s *salvager) after(name string, from int, l lead, next int, rest []occurrence) (candidate, bool) {
	t := s.text
	limit := min(from+salvageGapMax, len(t))
	newlines, words := 0, 0
	for i := from; i < limit; {
		if i > next {
			return candidate{}, false // the gap reached another name: its own call, or none
		}
		c := t[i]
		switch {
		case c == '\n':
			if newlines++; newlines > 1 {
				return candidate{}, false
			}
			i++
		case isSpace(c):
			i++
		case c == '{' || c == '(' || c == '"' || c == '\'' || strings.HasPrefix(t[i:], "“"):
			p, ok := s.readAt(i)
			return s.take(name, l, i, p, ok, rest)
		case c == '<':
			if p, ok := s.tagArgs(i); ok {
				return s.take(name, l, i, p, true, rest)
			}
			m := markupAt(t, i, limit)
			if m == i {
				return candidate{}, false
			}
			i = m
		case c == '[':
			m := markupAt(t, i, limit)
			if m == i {
				return candidate{}, false
			}
			i = m
		case isIdentByte(c):
			j := i
			for j < len(t) && isIdentByte(t[j]) {
				j++
			}
			if j+1 < len(t) && t[j] == '=' && (t[j+1] == '"' || t[j+1] == '\'') {
				p, ok := s.attrArgs(i)
				return s.take(name, l, i, p, ok, rest)
			}
			if words++; l.kind != leadMarker || i == next || words > gapWordsMax {
				return candidate{}, false // words between a name and an object: a sentence
			}
			i = j
		default: // punctuation, or a byte of a non-ASCII token
			i++
		}
	}
	return candidate{}, false
}

// readAt dispatches on the payload's first byte.
func (s *salvager) readAt(i int) (payload, bool) {
	switch s.text[i] {
	case '{':
		return s.objectArgs(i)
	case '(':
		return s.parenArgs(i)
	}
	v, end, bare, ok := s.value(i)
	if !ok || bare || len(v) == 0 || v[0] != '"' {
		return payload{}, false
	}
	return payload{args: string(v), end: end, strict: true}, true
}

// take checks a payload's standing and fit and makes it a candidate.
func (s *salvager) take(name string, l lead, at int, p payload, ok bool, rest []occurrence) (candidate, bool) {
	if ok && l.tag && p.attrs && !closesTag(s.text, p.end) {
		return candidate{}, false // <read_file path="a.go" onclick=x>: attributes left unread
	}
	if !ok || p.strict && l.kind != leadMarker {
		// a lone string needs call markup before the name: a line such as
		// cat "notes.txt" in an answer is a command shown, not one sent
		return candidate{}, false
	}
	end, standing := trail(s.text, p.end, trailLimit(s.text, rest, p.end), l, p.strict)
	if !standing {
		return candidate{}, false
	}
	return s.fit(name, candidate{start: l.start, end: end, args: p.args, raw: s.text[at:p.end]})
}

// objectArgs reads a JSON object (repaired). An object the reply ends inside is returned as
// written: tools/ completes it for a read and refuses it for anything else.
func (s *salvager) objectArgs(i int) (payload, bool) {
	end, closed := matchJSON(s.text, i)
	s.budget -= end - i
	raw := s.text[i:end]
	if !closed {
		return payload{args: strings.TrimRight(strings.TrimSpace(raw), "`"), end: end}, true
	}
	v := argsFromText(raw)
	if v == nil {
		return payload{}, false
	}
	return payload{args: string(v), end: end}, true
}

// parenArgs reads NAME( … ): keyword arguments written key=value or key: value, with quoted,
// bracketed or bare values, or one positional quoted string or object. A closing parenthesis
// lost at the end of the line or before a tag is forgiven.
func (s *salvager) parenArgs(i int) (payload, bool) {
	t := s.text
	var pairs []kv
	var positional json.RawMessage
	lastBare, closed := false, false
	j := i + 1
	for len(pairs) < 64 {
		j = skipSpace(t, j)
		if j >= len(t) || t[j] == '<' {
			break
		}
		if t[j] == ')' {
			j, closed = j+1, true
			break
		}
		key, k := keywordAt(t, j)
		v, vend, bare, ok := s.value(k)
		if !ok || key == "" && (positional != nil || bare || v[0] != '"' && v[0] != '{') || bare && !bareLiteral(t[k-1], v) {
			return payload{}, false
		}
		lastBare = bare
		if key == "" {
			positional = v
		} else {
			pairs = append(pairs, kv{key, v})
		}
		j = skipOver(t, vend, " \t")
		if j < len(t) && t[j] == ',' {
			j++
			continue
		}
		if j < len(t) && t[j] != ')' && t[j] != '\n' && t[j] != '\r' && t[j] != '<' {
			return payload{}, false
		}
	}
	switch {
	case !closed && lastBare:
		return payload{}, false // "read_file(path=the whole file": words cut off, not a value
	case positional != nil && pairs == nil:
		return payload{args: string(positional), end: j}, true
	case positional == nil:
		return payload{args: string(objectOf(pairs)), end: j}, true
	}
	return payload{}, false
}

// typeNames are the types a signature gives its parameters (read_file(path: str)).
var typeNames = map[string]bool{"str": true, "string": true, "int": true, "integer": true, "float": true, "bool": true,
	"boolean": true, "number": true, "list": true, "dict": true, "object": true, "any": true, "array": true, "none": true}

// bareLiteral reports whether an unquoted value after sep can be an argument: after "=" (a
// Python keyword) not a variable or attribute (path=file_path, path=self.path); after ":" not
// a type (a signature's path: str).
func bareLiteral(sep byte, v json.RawMessage) bool {
	var word string
	if json.Unmarshal(v, &word) != nil {
		return true // a number or literal
	}
	if sep == ':' {
		return !typeNames[strings.ToLower(word)]
	}
	ident := word != "" && !(word[0] >= '0' && word[0] <= '9')
	for i := 0; i < len(word) && ident; i++ {
		ident = isIdentByte(word[i]) || word[i] == '.'
	}
	return !ident
}

// keywordAt reads "key=" or "key:" at t[j] and returns the key and where its value starts, or
// "" and j.
func keywordAt(t string, j int) (string, int) {
	k := j
	for k < len(t) && isIdentByte(t[k]) {
		k++
	}
	sep := skipOver(t, k, " \t")
	if k == j || sep >= len(t) || t[sep] != '=' && t[sep] != ':' || sep+1 < len(t) && (t[sep+1] == t[sep] || t[sep+1] == '/') {
		return "", j
	}
	return t[j:k], sep + 1
}

// value reads one argument value at t[i] (spaces first): a string in straight, typographic or
// backslash-escaped quotes, a JSON object or array, or a bare word up to the next comma,
// parenthesis, tag or line end (bare is then true).
func (s *salvager) value(i int) (v json.RawMessage, end int, bare, ok bool) {
	t := s.text
	i = skipOver(t, i, " \t")
	if i >= len(t) {
		return nil, i, false, false
	}
	window := t[i:min(len(t), i+max(s.budget, 0))]
	closing := ""
	switch {
	case strings.HasPrefix(window, `\"`):
		closing, i, window = `\"`, i+2, window[2:]
	case window[0] == '"':
		if end, ok := matchString(t, i); ok {
			s.budget -= end - i
			if v, ok := looseValue(t[i:end]); ok && v[0] == '"' {
				return v, end, false, true
			}
		}
		closing, i, window = `"`, i+1, window[1:]
	case window[0] == '\'':
		closing, i, window = "'", i+1, window[1:]
	case strings.HasPrefix(window, "“"), strings.HasPrefix(window, "‘"):
		closing = closerOf[window[:3]]
		i, window = i+3, window[3:]
	case window[0] == '{' || window[0] == '[':
		end, closed := matchJSON(t, i)
		s.budget -= end - i
		if !closed {
			return nil, end, false, false
		}
		v, ok := looseValue(t[i:end])
		return v, end, false, ok
	}
	if closing != "" {
		k := strings.Index(window, closing)
		s.searched(k, len(window))
		if k < 0 {
			return nil, i, false, false
		}
		return quoteJSON(window[:k]), i + k + len(closing), false, true
	}
	k := strings.IndexAny(window, ",)<\n")
	if k < 0 {
		k = len(window)
	}
	word := strings.TrimSpace(window[:k])
	s.budget -= k
	if word == "" {
		return nil, i, false, false
	}
	if isJSONLiteral(word) {
		return json.RawMessage(word), i + k, true, true
	}
	return quoteJSON(word), i + k, true, true
}

// attrArgs reads key="value" pairs. A value's closing quote is the first one followed by the
// end of the line, a tag, or the next key=: GLM writes command="curl "https://…" | head"
// without escaping the quotes inside. A value never closed runs to the next tag or line end.
func (s *salvager) attrArgs(i int) (payload, bool) {
	t := s.text
	var pairs []kv
	j := i
	for len(pairs) < 32 {
		k := skipOver(t, j, " \t")
		e := k
		for e < len(t) && isIdentByte(t[e]) {
			e++
		}
		if e == k || e+1 >= len(t) || t[e] != '=' || t[e+1] != '"' && t[e+1] != '\'' {
			break
		}
		q := t[e+1]
		lineEnd := len(t)
		if nl := strings.IndexByte(t[e+2:], '\n'); nl >= 0 {
			lineEnd = e + 2 + nl
		}
		s.budget -= lineEnd - e
		v, end := attrValueEnd(t, e+2, lineEnd, q)
		pairs = append(pairs, kv{t[k:e], quoteJSON(v)})
		j = end
	}
	if len(pairs) == 0 {
		return payload{}, false
	}
	return payload{args: string(objectOf(pairs)), end: j, attrs: true}, true
}

// attrValueEnd finds the end of a quoted attribute value starting at t[from] on a line ending
// at lineEnd; it returns the value and the index after its closing quote.
func attrValueEnd(t string, from, lineEnd int, q byte) (string, int) {
	first := -1
	for p := from; p < lineEnd; p++ {
		if t[p] != q {
			continue
		}
		if first < 0 {
			first = p
		}
		after := skipOver(t, p+1, " \t")
		if after >= lineEnd || t[after] == '<' || t[after] == '/' || t[after] == '>' {
			return t[from:p], p + 1
		}
		if after > p+1 {
			if key, _ := keywordAt(t, after); key != "" {
				return t[from:p], p + 1
			}
		}
	}
	if first >= 0 { // no quote ends the value where a value ends: the first one does
		return t[from:first], first + 1
	}
	end := lineEnd
	if lt := strings.IndexByte(t[from:lineEnd], '<'); lt >= 0 {
		end = from + lt
	}
	return t[from:end], end
}
