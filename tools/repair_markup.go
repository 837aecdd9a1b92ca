package tools

import (
	"strings"

	"github.com/troupe-dev/troupe/tools/textcall"
)

// Arguments sent as a call format's parameter markup instead of JSON: a serving stack that
// took the call's name from the model's text but passed its body on as the arguments
// (<parameter=pattern>**</parameter> as glob's arguments: Qwen3-Coder's XML form; GLM's
// <arg_key>K</arg_key><arg_value>V</arg_value>; the <parameter name="K"> of invoke markup).
// The body is read by the text-call parser inside that format's own wrapper, and taken only
// when it is wholly parameters, at least one of them this tool's (or an alias of one).

// markupArgMax bounds the markup read as arguments.
const markupArgMax = 256 << 10

// markupName is the placeholder name the body is parsed under.
const markupName = "markup_args"

// markupWrappers put a parameters body back inside each format's call markup.
var markupWrappers = [][2]string{
	{"<tool_call>\n<function=" + markupName + ">\n", "\n</function>\n</tool_call>"},
	{"<tool_call>" + markupName + "\n", "\n</tool_call>"},
	{"<function_calls>\n<invoke name=\"" + markupName + "\">\n", "\n</invoke>\n</function_calls>"},
}

// markupArgs reads raw as parameter markup; ok is false unless it is only that.
func (s *argsSchema) markupArgs(raw string) (map[string]any, []Repair, bool) {
	text := strings.TrimSpace(raw)
	if !strings.HasPrefix(text, "<") || len(text) > markupArgMax {
		return nil, nil, false
	}
	known := func(name string) bool { return name == markupName }
	for _, w := range markupWrappers {
		p := textcall.Parse(w[0]+text+w[1], textcall.Options{Known: known})
		if len(p.Calls) != 1 || p.Calls[0].Name != markupName || p.Calls[0].Args == nil || strings.TrimSpace(p.Prose) != "" {
			continue
		}
		var args map[string]any
		if decodeNumbers(string(p.Calls[0].Args), &args) != nil || len(args) == 0 || !s.knowsAnyOf(args) {
			continue
		}
		return args, []Repair{newRepair(RepairTextFormat, preview(text), keyList(args))}, true
	}
	return nil, nil, false
}
