package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// scalarArgMax bounds the bare text read as a tool's one argument.
const scalarArgMax = 4 << 10

// wrapScalar reads arguments sent as one bare value instead of an object, the way a call in
// Cline's XML form writes its one argument (<read_file> a.py </read_file>, cline#4839) or a
// Python-style call passes it positionally (read_file("a.py")): when the tool has exactly
// one required argument and it takes a string, the value is that argument. raw is a JSON
// string or plain one-line text; anything else (an object, an array, several lines) is left
// for the schema error to report.
//
// Parameter markup in place of the object is read first (repair_markup.go): it is the whole
// arguments, not one value.
func (s *argsSchema) wrapScalar(raw string) (map[string]any, []Repair, bool) {
	if args, repairs, ok := s.markupArgs(raw); ok {
		return args, repairs, true
	}
	text := strings.TrimSpace(raw)
	if text == "" || len(text) > scalarArgMax {
		return nil, nil, false
	}
	if args, repairs, ok := s.argvArgs(text); ok {
		return args, repairs, true
	}
	var value string
	if json.Unmarshal([]byte(text), &value) != nil {
		// Plain text: one line that does not open JSON. Quotes inside it are the value's
		// own (`grep -rn "TODO" .` as a terminal tool's arguments, issue 20).
		if strings.ContainsAny(text, "\n") || strings.ContainsAny(text[:1], "{[\"") {
			return nil, nil, false
		}
		value = text
	}
	name, ok := s.soleRequiredString()
	if !ok || strings.TrimSpace(value) == "" {
		return nil, nil, false
	}
	args := map[string]any{name: strings.TrimSpace(value)}
	return args, []Repair{newRepair(RepairCoercion, text, fmt.Sprintf("{%q: …}", name))}, true
}

// soleRequiredString returns the argument a bare value stands for, when it takes a string: the
// schema's one required argument, or, when it requires none, its first declared one, as a
// positional argument binds to the first parameter (list_dir("src"), read_dir("src")).
func (s *argsSchema) soleRequiredString() (string, bool) {
	takesString := func(p propSpec) bool { return len(p.types) == 0 || slices.Contains(p.types, "string") }
	switch len(s.required) {
	case 0:
		if len(s.props) > 0 && takesString(s.props[0]) {
			return s.props[0].name, true
		}
	case 1:
		for _, p := range s.props {
			if s.required[p.name] && takesString(p) {
				return p.name, true
			}
		}
	}
	return "", false
}

// argvArgs reads arguments that are only an argv array (["bash", "-lc", "ls -R"], Codex's
// shell command sent without its object) as the command of a tool whose one required string
// is a command; argvCommand then joins it into the command line.
func (s *argsSchema) argvArgs(text string) (map[string]any, []Repair, bool) {
	var argv []string
	if !strings.HasPrefix(text, "[") || json.Unmarshal([]byte(text), &argv) != nil || len(argv) == 0 {
		return nil, nil, false
	}
	if name, ok := s.soleRequiredString(); !ok || name != "command" {
		return nil, nil, false
	}
	words := make([]any, len(argv))
	for i, w := range argv {
		words[i] = w
	}
	return map[string]any{"command": words}, []Repair{newRepair(RepairShellForm, text, `{"command": […]}`)}, true
}
