package tools

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Bare words fallen out of the strings of JSON arguments (issue 20): after a complete value,
// {"command": "./build.sh" build script, "description": "Run fixed"} (the words were the start
// of the next value, MiniMax M2.5 in opencode), or alone where a key belongs,
// {"filePath": "/a/index.ts",ubin} (opencode's AI SDK refused both). The strings the model
// closed are kept as it delimited them, and the words, which no JSON reading can place, are
// dropped. A word followed by ':' is an unquoted key, and one after ':' an unquoted value:
// those are the repair library's and the schema's to read (objectLiteral), not dropped. The
// text must be valid JSON once the words are gone, or nothing changes; so text whose own
// quotes were left unescaped ({"command": "echo "hi" there"}) is never cut this way.

// dropStrayWords drops each such run of bare words; ok when the result is valid JSON.
func dropStrayWords(text string) (string, bool) {
	if firstByte(text) != '{' {
		return text, false
	}
	b := make([]byte, 0, len(text))
	prev := byte('{') // the last significant byte written: a value's end ('v'), or { [ , :
	changed := false
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			end, _ := stringEnd(text, i, '"')
			b = append(b, text[i:end]...)
			i = end
			prev = 'v'
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			b = append(b, c)
			i++
		case strings.IndexByte("{[,:", c) >= 0:
			b = append(b, c)
			prev = c
			i++
		case c == '}' || c == ']':
			b = append(b, c)
			prev = 'v'
			i++
		default:
			j := i
			for j < len(text) && strings.IndexByte("{}[],:\"", text[j]) < 0 {
				j++
			}
			word := strings.TrimSpace(text[i:j])
			next := byte(0)
			if j < len(text) {
				next = text[j]
			}
			stray := (next == ',' || next == '}') && !jsonScalar(word) &&
				(prev == 'v' || prev == ',' || prev == '{')
			if !stray {
				b = append(b, text[i:j]...)
				if word != "" {
					prev = 'v'
				}
				i = j
				continue
			}
			changed = true
			i = j
			if prev == ',' && next == '}' { // ,ubin} loses its comma too
				b = bytes.TrimRight(b, " \t\r\n")
				b = b[:len(b)-1] // the comma: the last byte written that is not a blank
				prev = 'v'
			}
			if prev == ',' && next == ',' {
				i++ // ,word, keeps one comma
			}
		}
	}
	if !changed || !json.Valid(b) {
		return text, false
	}
	return string(b), true
}

// jsonScalar says whether word is a JSON number or literal (a value, not stray text).
func jsonScalar(word string) bool {
	switch word {
	case "true", "false", "null":
		return true
	}
	return json.Valid([]byte(word)) && word != ""
}
