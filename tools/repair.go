package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/jsonfix"
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
// is. Otherwise stray Windows backslashes are escaped and Python literals (True, None,
// 'single quotes') rewritten; what still does not parse goes through the repair library
// (trailing commas, unquoted keys, truncation, markdown fences, prose around the object). A
// JSON string holding the object is unwrapped. repairs lists each change, in order.
func parseArgs(raw string) (args json.RawMessage, repairs []Repair, err error) {
	return parseArgsDepth(raw, 0)
}

func parseArgsDepth(raw string, depth int) (json.RawMessage, []Repair, error) {
	text := strings.TrimSpace(raw)
	if text == "" || text == "null" {
		return json.RawMessage("{}"), nil, nil
	}
	if json.Valid([]byte(text)) {
		return asObject(text, depth)
	}
	fixed, repairs := text, []Repair(nil)
	if t, ok := escapedObject(fixed); ok {
		repairs = append(repairs, newRepair(RepairStrayText, fixed, t))
		fixed = t
	}
	if t, ok := escapeStrayBackslashes(fixed); ok {
		repairs = append(repairs, newRepair(RepairBackslash, fixed, t))
		fixed = t
	}
	if t, ok := pythonToJSON(fixed); ok {
		repairs = append(repairs, newRepair(RepairPyLiteral, fixed, t))
		fixed = t
	}
	if t, ok := literalEscapesBetweenTokens(fixed); ok {
		repairs = append(repairs, newRepair(RepairStrayText, fixed, t))
		fixed = t
	}
	if t, ok := dropTrailingTokens(fixed); ok {
		repairs = append(repairs, newRepair(RepairStrayText, fixed, t))
		fixed = t
	}
	if t, ok := dropStrayWords(fixed); ok {
		repairs = append(repairs, newRepair(RepairStrayText, fixed, t))
		fixed = t
	}
	if t, ok := unwrapDoubledBraces(fixed); ok {
		repairs = append(repairs, newRepair(RepairStrayText, fixed, t))
		fixed = t
	}
	if fixed != text && json.Valid([]byte(fixed)) {
		if args, more, err := asObject(fixed, depth); err == nil {
			return args, append(repairs, more...), nil
		}
	}
	if obj, ok := glmPairsInJSON(fixed); ok {
		return json.RawMessage(obj), append(repairs, newRepair(RepairStrayText, fixed, obj)), nil
	}
	if second, ok := dropCutCopy(fixed); ok {
		if args, more, err := asObject(second, depth); err == nil {
			return args, append(append(repairs, newRepair(RepairRepeatedArg, fixed, second)), more...), nil
		}
	}
	if head, ok := dropGarbledRepeat(fixed); ok {
		if args, more, err := asObject(head, depth); err == nil {
			return args, append(append(repairs, newRepair(RepairRepeatedArg, fixed, head)), more...), nil
		}
	}
	if args, repaired, more, ok := libraryRepair(fixed, depth); ok {
		repairs = append(repairs, newRepair(RepairJSON, fixed, repaired))
		return args, append(repairs, more...), nil
	}
	if fixed != text { // the pre-passes did not help: only the library's repair counts
		if args, repaired, more, ok := libraryRepair(text, depth); ok {
			return args, append([]Repair{newRepair(RepairJSON, text, repaired)}, more...), nil
		}
	}
	return nil, nil, syntaxErrorOf(text)
}

// dropGarbledRepeat closes an object whose members are valid up to one that repeats a key
// already given, garbled: ..."filePath": "/p/a.sh",\n "filePath"/p/a.sh"} (opencode#6918,
// Qwen3-Coder-Next). Nothing is lost: the key already has its value. Anything else after the
// cut (a new key, a value) makes it refuse.
func dropGarbledRepeat(text string) (string, bool) {
	var v any
	var syn *json.SyntaxError
	if err := json.Unmarshal([]byte(text), &v); !errors.As(err, &syn) || syn.Offset > int64(len(text)) {
		return "", false
	}
	cut := strings.LastIndexByte(text[:syn.Offset], ',')
	if cut < 0 {
		return "", false
	}
	head := text[:cut] + "}"
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(head), &obj) != nil {
		return "", false
	}
	tail := strings.TrimSpace(text[cut+1:])
	end := strings.IndexByte(tail[min(1, len(tail)):], '"')
	if !strings.HasPrefix(tail, `"`) || end < 0 {
		return "", false
	}
	if _, repeated := obj[tail[1:1+end]]; !repeated {
		return "", false
	}
	return head, true
}

// asObject accepts valid JSON text that is an object, or a string holding one.
func asObject(text string, depth int) (json.RawMessage, []Repair, error) {
	switch firstByte(text) {
	case '{':
		return json.RawMessage(text), nil, nil
	case '"':
		var inner string
		if err := json.Unmarshal([]byte(text), &inner); err != nil {
			return nil, nil, &argsError{msg: "invalid JSON string: " + err.Error()}
		}
		if trimmed := strings.TrimSpace(inner); depth >= maxUnwrap || !(strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, `"`)) {
			return nil, nil, &argsError{msg: "the arguments must be a JSON object, got a string"}
		}
		args, more, err := parseArgsDepth(inner, depth+1)
		if err != nil {
			return nil, nil, err
		}
		return args, append([]Repair{newRepair(RepairDoubleEncoded, text, string(args))}, more...), nil
	default:
		return nil, nil, &argsError{msg: "the arguments must be a JSON object, got " + jsonKind(text)}
	}
}

// libraryRepairMax bounds the text the repair library is given: its time grows with the square
// of the length on unclosed input (a megabyte of nested objects takes most of a minute), so
// longer broken arguments are refused with their syntax error, which says where they broke.
const libraryRepairMax = 256 << 10

// libraryRepair runs the repair library on text and on the object inside any prose around it.
func libraryRepair(text string, depth int) (args json.RawMessage, repaired string, more []Repair, ok bool) {
	if len(text) > libraryRepairMax {
		return nil, "", nil, false
	}
	for _, candidate := range repairCandidates(text) {
		fixed, ok := jsonfix.Repair(candidate)
		if !ok {
			continue
		}
		if args, more, err := asObject(fixed, depth); err == nil {
			return args, fixed, more, true
		}
	}
	return nil, "", nil, false
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
