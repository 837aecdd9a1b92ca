package tools

import (
	"encoding/json"
	"strings"
)

// objectLiteral reads arguments written as an object literal with unquoted keys and values,
// {path: example.txt, content: Hello, world} (ccany#3), using the schema to say where one
// value ends: a value runs to the next ", key:" whose key the tool declares (or an alias of
// one it declares), so commas and colons inside a value stay in it. It never guesses beyond
// that: the first key must be known, a key may appear once, and a value that opens an object
// or array is left to the JSON repair. A value written as a JSON or single-quoted string is
// unquoted; every other value is kept as text for the schema's coercion. raw may be the
// literal itself or a JSON string holding it.
func (s *argsSchema) objectLiteral(raw string) (map[string]any, []Repair, bool) {
	text := strings.TrimSpace(raw)
	var inner string
	if strings.HasPrefix(text, `"`) && json.Unmarshal([]byte(text), &inner) == nil {
		text = strings.TrimSpace(inner)
	}
	if len(text) < 2 || text[0] != '{' || text[len(text)-1] != '}' || json.Valid([]byte(text)) {
		return nil, nil, false
	}
	body := text[1 : len(text)-1]
	key, at, ok := s.literalKey(body, 0)
	if !ok {
		return nil, nil, false
	}
	args := map[string]any{}
	for {
		next, nextKey, nextAt := s.nextLiteralKey(body, at)
		value := strings.TrimSpace(body[at:next])
		if next == len(body) {
			value = strings.TrimSpace(strings.TrimSuffix(value, ",")) // a trailing comma
		}
		if _, dup := args[key]; dup || strings.HasPrefix(value, "{") || strings.HasPrefix(value, "[") {
			return nil, nil, false
		}
		args[key] = literalValue(value)
		if next == len(body) {
			break
		}
		key, at = nextKey, nextAt
	}
	out, err := json.Marshal(args)
	if err != nil {
		return nil, nil, false
	}
	return args, []Repair{newRepair(RepairJSON, text, string(out))}, true
}

// literalKey reads "key:" at i (after blanks) and returns the key and where its value starts,
// when the key is one the schema declares or an alias of one.
func (s *argsSchema) literalKey(body string, i int) (key string, valueAt int, ok bool) {
	i = skipBlanks(body, i)
	j := i
	for j < len(body) && isKeyByte(body[j]) {
		j++
	}
	if j == i || j >= len(body) || body[j] != ':' || !s.knowsArg(body[i:j]) {
		return "", 0, false
	}
	return body[i:j], j + 1, true
}

// nextLiteralKey finds the first ", key:" at or after i with a known key; next is the comma
// (len(body) when there is none).
func (s *argsSchema) nextLiteralKey(body string, i int) (next int, key string, valueAt int) {
	for {
		c := strings.IndexByte(body[i:], ',')
		if c < 0 {
			return len(body), "", 0
		}
		if k, at, ok := s.literalKey(body, i+c+1); ok {
			return i + c, k, at
		}
		i += c + 1
	}
}

// knowsArg says whether name is a declared argument or an alias of one.
func (s *argsSchema) knowsArg(name string) bool {
	if s.has(name) {
		return true
	}
	for _, target := range argAliases[normalizedName(name)] {
		if s.has(target) {
			return true
		}
	}
	return false
}

// literalValue unquotes a value written as a JSON or single-quoted string.
func literalValue(v string) any {
	var s string
	if strings.HasPrefix(v, `"`) && json.Unmarshal([]byte(v), &s) == nil {
		return s
	}
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return v[1 : len(v)-1]
	}
	return v
}

func isKeyByte(b byte) bool {
	return b == '_' || b == '-' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}
