package textcall

import (
	"encoding/json"
	"strings"
)

// MarkupArgs reads the argument text of a structured call that a serving stack filled with
// the model's own parameter markup instead of JSON (opencode#1585: LM Studio passed
// "<parameter=pattern>**</parameter>" as glob's arguments for Qwen3-Coder). The markup is one
// of the tag-pair argument forms the scanners read inside a call: Qwen3-Coder's
// <parameter=K>V</parameter>, GLM's <arg_key>K</arg_key><arg_value>V</arg_value>, the invoke
// form's <parameter name="K">V</parameter>. ok is false unless the whole text is such
// arguments, closed, at least one.
func MarkupArgs(raw string) (json.RawMessage, bool) {
	t := strings.TrimSpace(raw)
	if len(t) > repairMax<<4 || !strings.HasPrefix(t, "<") {
		return nil, false
	}
	var calls []Call
	complete := false
	switch {
	case strings.HasPrefix(t, qwenParamOpen):
		if !strings.HasSuffix(t, qwenParamClose) {
			return nil, false
		}
		call, ok := qwenFunction(qwenFunctionOpen + "args>\n" + t + "\n" + qwenFunctionClose)
		if call != nil {
			calls, complete = []Call{*call}, ok
		}
	case strings.HasPrefix(t, glmKeyOpen):
		if !strings.HasSuffix(t, glmValueClose) {
			return nil, false
		}
		calls, complete = glmBody("args"+t, func(string) bool { return true })
	case strings.HasPrefix(t, "<parameter name="):
		if !strings.HasSuffix(t, "</parameter>") {
			return nil, false
		}
		calls, complete = invokeBody(` name="args">`+t, invokeForm{"invoke", "", "name"})
	}
	if !complete || len(calls) != 1 || len(calls[0].Args) < 3 || string(calls[0].Args) == "{}" {
		return nil, false
	}
	return calls[0].Args, true
}
