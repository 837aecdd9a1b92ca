package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kaptinlin/jsonrepair"
)

// maxUnwrap bounds how many layers of "JSON string holding JSON" are peeled off.
const maxUnwrap = 2

// argsError says where the arguments failed to parse.
type argsError struct {
	msg     string
	offset  int
	snippet string
}

func (e *argsError) Error() string {
	if e.snippet == "" {
		return e.msg
	}
	return fmt.Sprintf("%s at offset %d, near %s", e.msg, e.offset, e.snippet)
}

// parseArgs turns the model's raw argument text into a JSON object. Valid JSON is taken as
// is; otherwise it tries repair (trailing commas, single quotes, unquoted keys, truncation,
// markdown fences, prose around the object) and a JSON string holding the JSON is unwrapped.
// repaired is true when the text was changed to make it parse.
func parseArgs(raw string) (args json.RawMessage, repaired bool, err error) {
	return parseArgsDepth(raw, 0)
}

func parseArgsDepth(raw string, depth int) (json.RawMessage, bool, error) {
	text := strings.TrimSpace(raw)
	if text == "" || text == "null" {
		return json.RawMessage("{}"), false, nil
	}
	if json.Valid([]byte(text)) {
		return asObject(text, false, depth)
	}
	for _, candidate := range repairCandidates(text) {
		fixed, ok := tryRepair(candidate)
		if !ok {
			continue
		}
		if args, _, err := asObject(fixed, true, depth); err == nil {
			return args, true, nil
		}
	}
	return nil, false, syntaxErrorOf(text)
}

// asObject accepts valid JSON text that is an object, or a string holding one.
func asObject(text string, repaired bool, depth int) (json.RawMessage, bool, error) {
	switch firstByte(text) {
	case '{':
		return json.RawMessage(text), repaired, nil
	case '"':
		var inner string
		if err := json.Unmarshal([]byte(text), &inner); err != nil {
			return nil, false, &argsError{msg: "invalid JSON string: " + err.Error()}
		}
		if trimmed := strings.TrimSpace(inner); depth >= maxUnwrap || !(strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, `"`)) {
			return nil, false, &argsError{msg: "the arguments must be a JSON object, got a string"}
		}
		args, _, err := parseArgsDepth(inner, depth+1)
		return args, true, err
	default:
		return nil, false, &argsError{msg: "the arguments must be a JSON object, got " + jsonKind(text)}
	}
}

// repairCandidates are the texts worth repairing: the whole, then the span from the first
// '{' to the last '}' (a model that wrapped the object in prose).
func repairCandidates(text string) []string {
	out := []string{text}
	start, end := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
	if start > 0 && end > start {
		out = append(out, text[start:end+1])
	}
	return out
}

// tryRepair runs the repair library, which must not be able to take the call down.
func tryRepair(text string) (fixed string, ok bool) {
	defer func() {
		if recover() != nil {
			fixed, ok = "", false
		}
	}()
	fixed, err := jsonrepair.Repair(text)
	if err != nil || !json.Valid([]byte(fixed)) {
		return "", false
	}
	return strings.TrimSpace(fixed), true
}

// syntaxErrorOf locates the first syntax error in text.
func syntaxErrorOf(text string) error {
	var v any
	err := json.Unmarshal([]byte(text), &v)
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		msg := "invalid JSON"
		if err != nil {
			msg = "invalid JSON: " + err.Error()
		}
		return &argsError{msg: msg, offset: len(text), snippet: snippetAt(text, len(text))}
	}
	off := int(syn.Offset)
	return &argsError{msg: "invalid JSON (" + syn.Error() + ")", offset: off, snippet: snippetAt(text, off)}
}

// snippetAt quotes up to 24 bytes either side of off, marking off with ⟨here⟩.
func snippetAt(text string, off int) string {
	off = min(max(off, 0), len(text))
	from, to := max(0, off-24), min(len(text), off+24)
	return fmt.Sprintf("%q", text[from:off]+"⟨here⟩"+text[off:to])
}

func firstByte(text string) byte {
	b := bytes.TrimSpace([]byte(text))
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func jsonKind(text string) string {
	switch firstByte(text) {
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
