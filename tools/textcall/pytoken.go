package textcall

import (
	"encoding/json"
	"strconv"
	"strings"
)

// A small reader for Python call syntax: NAME(key=value, …) where values are str, int, float,
// True/False/None, lists, tuples and dicts of those. It evaluates nothing: anything else
// (a variable, an expression, a nested call) makes the call invalid.

type pyStatus int

const (
	pyOK     pyStatus = iota
	pyBad             // not a literal call
	pyCutOff          // the text ends inside the call
)

// pyMaxDepth bounds nesting, so "[[[[…" costs no deep recursion.
const pyMaxDepth = 64

type pyReader struct {
	s     string
	i     int
	depth int
	// object is the call's one positional argument when it is a dict: a model that wrote
	// the arguments object as JavaScript, Read({file_path:"a"}) (sums001/Deepseek-API#2).
	object json.RawMessage
	// first is the call's first positional argument, whatever its type.
	first json.RawMessage
	// bare says which unquoted argument values read as strings (see bareValue).
	bare bareMode
}

// bareMode is how far a keyword argument's unquoted value is read as a string: models that
// leave a call's string unquoted (tool-calling-benchmark's gemma3:1b "search_files(pattern:
// .py)", subversionbench's llama-4-maverick "[bash(cmd=cat README.md)]").
type bareMode int

const (
	bareNone bareMode = iota
	// bareNotCode reads an unquoted value only when it cannot be Python (words with blanks
	// between, a leading '.', a glob): a name or attribute there is a variable in code.
	bareNotCode
	// bareAny reads any unquoted value, inside a call marker.
	bareAny
)

func (p *pyReader) space() { p.i = skipSpace(p.s, p.i) }

func (p *pyReader) done() bool { return p.i >= len(p.s) }

// args reads the arguments after "(" through ")". positional counts arguments without a key.
func (p *pyReader) args() (pairs []kv, positional int, st pyStatus) {
	for {
		p.space()
		if p.done() {
			return nil, 0, pyCutOff
		}
		if p.s[p.i] == ')' {
			p.i++
			return pairs, positional, pyOK
		}
		key := p.keyword()
		at := p.i
		v, st := p.value()
		if st == pyBad && key != "" && p.bare != bareNone {
			p.i = at
			v, st = p.bareValue()
		}
		if st != pyOK {
			return nil, 0, st
		}
		if key == "" {
			if positional++; positional == 1 {
				p.first = v
				if len(v) > 0 && v[0] == '{' {
					p.object = v
				}
			}
		} else {
			pairs = append(pairs, kv{key, v})
		}
		p.space()
		switch {
		case p.done():
			return nil, 0, pyCutOff
		case p.s[p.i] == ',':
			p.i++
		case p.s[p.i] != ')':
			return nil, 0, pyBad
		}
	}
}

// keyword consumes "name=" and returns name, or returns "" and consumes nothing. "name:"
// counts too: no Python call argument is written so, and models mixing in the key: value
// pairs of Gemma 4's call:NAME{k:v} or of JavaScript write it (tool-calling-benchmark's
// gemma3:1b "search_files(pattern: '*.py')").
func (p *pyReader) keyword() string {
	j := p.i
	for j < len(p.s) && isIdentByte(p.s[j]) {
		j++
	}
	k := skipSpace(p.s, j)
	if j == p.i || k >= len(p.s) || p.s[k] != '=' && p.s[k] != ':' || k+1 < len(p.s) && p.s[k+1] == '=' {
		return ""
	}
	key := p.s[p.i:j]
	p.i = k + 1
	return key
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// value reads one literal and returns it as JSON.
func (p *pyReader) value() (json.RawMessage, pyStatus) {
	p.space()
	if p.done() {
		return nil, pyCutOff
	}
	c := p.s[p.i]
	switch {
	case strings.HasPrefix(p.s[p.i:], gemmaQuote):
		end := strings.Index(p.s[p.i+len(gemmaQuote):], gemmaQuote)
		if end < 0 {
			return nil, pyCutOff
		}
		v := p.s[p.i+len(gemmaQuote) : p.i+len(gemmaQuote)+end]
		p.i += 2*len(gemmaQuote) + end
		return quoteJSON(v), pyOK
	case c == '"' || c == '\'':
		return p.str()
	case c == '\\' && strings.HasPrefix(p.s[p.i:], `\"`):
		return p.escapedStr()
	case c == '[' || c == '(':
		if c == '(' {
			return p.list(')')
		}
		return p.list(']')
	case c == '{':
		return p.dict()
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return p.number()
	case isIdentByte(c):
		j := p.i
		for j < len(p.s) && isIdentByte(p.s[j]) {
			j++
		}
		word := p.s[p.i:j]
		if lit, ok := pyLiterals[word]; ok {
			p.i = j
			return json.RawMessage(lit), pyOK
		}
		if (word == "r" || word == "b" || word == "u") && j < len(p.s) && (p.s[j] == '"' || p.s[j] == '\'') {
			p.i = j
			return p.str()
		}
	}
	return nil, pyBad
}

// str reads a '…', "…", ”'…”' or """…""" literal.
func (p *pyReader) str() (json.RawMessage, pyStatus) {
	q := p.s[p.i : p.i+1]
	if strings.HasPrefix(p.s[p.i:], q+q+q) {
		q = q + q + q
	}
	p.i += len(q)
	var b strings.Builder
	for {
		if p.done() {
			return nil, pyCutOff
		}
		if strings.HasPrefix(p.s[p.i:], q) {
			p.i += len(q)
			return quoteJSON(b.String()), pyOK
		}
		c := p.s[p.i]
		if c == '\n' && len(q) == 1 {
			return nil, pyBad
		}
		if c == '\\' && p.i+1 < len(p.s) {
			if r, ok := pyEscapes[p.s[p.i+1]]; ok {
				b.WriteString(r)
				p.i += 2
				continue
			}
		}
		b.WriteByte(c)
		p.i++
	}
}

var pyLiterals = map[string]string{"True": "true", "False": "false", "None": "null", "true": "true", "false": "false", "null": "null"}

var pyEscapes = map[byte]string{'n': "\n", 't': "\t", 'r': "\r", '\\': "\\", '\'': "'", '"': "\"", '0': "\x00"}

func (p *pyReader) number() (json.RawMessage, pyStatus) {
	j := p.i
	for j < len(p.s) && strings.IndexByte("0123456789+-.eE_", p.s[j]) >= 0 {
		j++
	}
	word := strings.ReplaceAll(p.s[p.i:j], "_", "")
	p.i = j
	f, err := strconv.ParseFloat(word, 64)
	if err != nil {
		return nil, pyBad
	}
	if n, err := strconv.ParseInt(word, 10, 64); err == nil {
		return json.RawMessage(strconv.FormatInt(n, 10)), pyOK
	}
	return json.RawMessage(strconv.FormatFloat(f, 'g', -1, 64)), pyOK
}

func (p *pyReader) list(close byte) (json.RawMessage, pyStatus) {
	if p.depth++; p.depth > pyMaxDepth {
		return nil, pyBad
	}
	defer func() { p.depth-- }()
	p.i++
	var items []string
	for {
		p.space()
		if p.done() {
			return nil, pyCutOff
		}
		if p.s[p.i] == close {
			p.i++
			return json.RawMessage("[" + strings.Join(items, ",") + "]"), pyOK
		}
		v, st := p.value()
		if st != pyOK {
			return nil, st
		}
		items = append(items, string(v))
		if st := p.separator(close); st != pyOK {
			return nil, st
		}
	}
}

func (p *pyReader) dict() (json.RawMessage, pyStatus) {
	if p.depth++; p.depth > pyMaxDepth {
		return nil, pyBad
	}
	defer func() { p.depth-- }()
	p.i++
	var pairs []kv
	for {
		p.space()
		if p.done() {
			return nil, pyCutOff
		}
		if p.s[p.i] == '}' {
			p.i++
			return objectOf(pairs), pyOK
		}
		key, st := p.dictKey()
		if st != pyOK {
			return nil, st
		}
		p.space()
		if p.done() {
			return nil, pyCutOff
		}
		if p.s[p.i] != ':' {
			return nil, pyBad
		}
		p.i++
		v, st := p.value()
		if st != pyOK {
			return nil, st
		}
		pairs = append(pairs, kv{key, v})
		if st := p.separator('}'); st != pyOK {
			return nil, st
		}
	}
}

// dictKey reads a dict key: a literal, or a bare identifier as JavaScript writes it ({path: "a"}).
func (p *pyReader) dictKey() (string, pyStatus) {
	p.space()
	j := p.i
	for j < len(p.s) && isIdentByte(p.s[j]) {
		j++
	}
	if k := skipSpace(p.s, j); j > p.i && k < len(p.s) && p.s[k] == ':' && !isJSONLiteral(p.s[p.i:j]) && !(p.s[p.i] >= '0' && p.s[p.i] <= '9') {
		key := p.s[p.i:j]
		p.i = j
		return key, pyOK
	}
	k, st := p.value()
	if st != pyOK {
		return "", st
	}
	var key string
	if json.Unmarshal(k, &key) != nil {
		key = string(k)
	}
	return key, pyOK
}

// separator consumes a "," or stops before close.
func (p *pyReader) separator(close byte) pyStatus {
	p.space()
	switch {
	case p.done():
		return pyCutOff
	case p.s[p.i] == ',':
		p.i++
	case p.s[p.i] != close:
		return pyBad
	}
	return pyOK
}

// escapedStr reads a string whose quotes arrived escaped, as if the call sat inside a JSON
// string: search_files(pattern: \"train\") (tool-calling-benchmark's gemma3:1b).
func (p *pyReader) escapedStr() (json.RawMessage, pyStatus) {
	const q = `\"`
	p.i += len(q)
	end := strings.Index(p.s[p.i:], q)
	if end < 0 {
		return nil, pyCutOff
	}
	v := p.s[p.i : p.i+end]
	if strings.ContainsAny(v, "\n\"") {
		return nil, pyBad
	}
	p.i += end + len(q)
	return quoteJSON(v), pyOK
}

// bareMax bounds an unquoted value.
const bareMax = 512

// bareValue reads an unquoted keyword value up to the ',' or ')' that ends it, as a string.
// It holds no quote, bracket or line break; under bareNotCode it must not read as Python.
func (p *pyReader) bareValue() (json.RawMessage, pyStatus) {
	p.space()
	j := p.i
	for j < len(p.s) && j-p.i < bareMax && p.s[j] != ',' && p.s[j] != ')' {
		if strings.IndexByte("\"'()[]{}<>\n", p.s[j]) >= 0 {
			return nil, pyBad
		}
		j++
	}
	if j >= len(p.s) {
		return nil, pyBad // never "cut off": an unquoted word at the end is prose
	}
	v := strings.TrimRight(p.s[p.i:j], " \t\r")
	if v == "" || p.bare == bareNotCode && pythonic(v) {
		return nil, pyBad
	}
	p.i = j
	return quoteJSON(v), pyOK
}

// pythonic reports whether v reads as a Python name, attribute or number: a variable in code.
func pythonic(v string) bool {
	if v[0] >= '0' && v[0] <= '9' {
		return true
	}
	for i := 0; i < len(v); i++ {
		if !isIdentByte(v[i]) && (v[i] != '.' || i == 0) {
			return false
		}
	}
	return true
}
