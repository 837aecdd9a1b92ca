package tools

import (
	"encoding/json"
	"fmt"
	"slices"
)

// One tool for every file operation, its action an argument: {"action": "read", "path": …} to
// a tool named file, filesystem, file_manager or file_operations (the command of Anthropic's
// and Goose's text editors, the action or operation of agent frameworks' file tools). The
// name says what is acted on (a file, a directory) and the action what is done; together they
// mean one of our tools as an invented name's words do (toolnames_meaning.go), and the call is
// that tool when its other arguments fit it.

// actionArgKeys are the arguments that name the operation.
var actionArgKeys = []string{"action", "operation", "op", "command", "cmd", "mode"}

// objectWords are the words such a tool's name is made of besides our meanings' file and dir.
var objectWords = []string{"filesystem", "fs", "manager", "operations", "operation", "ops", "io", "system", "tool", "tools", "editor", "utils"}

// byAction maps a call to a file tool whose action argument names the operation.
func (r *Registry) byAction(name, args string) (resolution, bool) {
	words := nameWords(name)
	object := "file"
	for _, w := range words {
		switch m, known := wordMeanings[w]; {
		case known && m == "dir":
			object = "dir"
		case known && (m == "file" || m == ""), slices.Contains(objectWords, w):
		default:
			return resolution{}, false
		}
	}
	var decoded map[string]any
	parsed, _, err := parseArgs(args)
	if len(words) == 0 || err != nil || decodeNumbers(string(parsed), &decoded) != nil {
		return resolution{}, false
	}
	for _, key := range actionArgKeys {
		verb, ok := decoded[key].(string)
		if !ok {
			continue
		}
		tool := r.meaningOf(verb + "_" + object)
		if res, found := r.resolve(verb, ""); found && tool == "" {
			tool = res.name // the action names a tool outright: read_file, grep
		}
		if tool == "" {
			return resolution{refusal: fmt.Sprintf("%s: %s %q names no tool here; call read_file, write_file, edit_file, list_dir, glob or grep", name, key, verb)}, false
		}
		delete(decoded, key)
		out, err := json.Marshal(decoded)
		if err != nil || !r.takesArgs(tool, string(out)) {
			return resolution{refusal: fmt.Sprintf("%s with %s %q is %s here, and its arguments do not fit it", name, key, verb, tool)}, false
		}
		return r.renamed(name, tool, string(out)), true
	}
	return resolution{}, false
}
