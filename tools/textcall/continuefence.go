package textcall

import "strings"

// Continue's tool fence for models without native tool calls (its system-message tools,
// core/tools/systemMessageTools): the name and each argument on labelled lines, each value
// between BEGIN_ARG and END_ARG:
//
//	```tool
//	TOOL_NAME: builtin_read_file
//	BEGIN_ARG: filepath
//	src/a.go
//	END_ARG
//	```
//
// A value is text; an obvious JSON array or object is decoded (tagValue). The fence is the
// call marker (scanFenced), so no Known name is needed.

const (
	continueToolName = "TOOL_NAME:"
	continueBeginArg = "BEGIN_ARG:"
	continueEndArg   = "END_ARG"
)

// continueToolCall reads a ```tool fence's body in Continue's labelled form; nil when it is not.
func continueToolCall(body string) []Call {
	lines := strings.Split(strings.TrimSpace(body), "\n")
	name, ok := strings.CutPrefix(strings.TrimSpace(lines[0]), continueToolName)
	name = strings.TrimSpace(name)
	if !ok || !plausibleName(name) {
		return nil
	}
	var pairs []kv
	for i := 1; i < len(lines); i++ {
		key, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), continueBeginArg)
		if !ok {
			if strings.TrimSpace(lines[i]) == "" {
				continue
			}
			return nil // text outside an argument: not this form
		}
		var value []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != continueEndArg; i++ {
			value = append(value, lines[i])
		}
		pairs = append(pairs, kv{strings.TrimSpace(key), tagValue(strings.Join(value, "\n"))})
	}
	return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(body), Format: FormatFenced}}
}
