package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Nested action payloads (issue 20): agent frameworks route every action through one tool
// whose argument holds the real call, often JSON-encoded as a string. wcgw's BashCommand takes
// action_json ({"command": …}, or send_text / status_check for a running command), its
// ReadFiles takes file_paths and FileWriteOrEdit takes text_or_search_replace_blocks (the
// whole file, or SEARCH/REPLACE blocks) with percentage_to_change; other frameworks put a
// whole call, {"name"|"tool": N, "arguments"|"args"|"parameters": {…}}, in action or
// action_json. A payload that is a whole call becomes that call (Split); one that is only the
// arguments is unwrapped like any wrapper (wrapperKeys).

// actionKeys are the argument names a nested payload sits under.
var actionKeys = []string{"action_json", "action"}

// actionCall reads a whole call nested in args' action payload: its name and its arguments as
// JSON text. ok is false when there is no payload or it is not a whole call.
func actionCall(args map[string]any) (name, inner string, ok bool) {
	for _, key := range actionKeys {
		payload := objectOf(args[key])
		if payload == nil {
			continue
		}
		for _, nk := range []string{"name", "tool", "tool_name", "function"} {
			n, _ := payload[nk].(string)
			if n == "" {
				continue
			}
			for _, ak := range []string{"arguments", "args", "parameters", "input", "params"} {
				a := objectOf(payload[ak])
				if a == nil || len(payload) != 2 {
					continue
				}
				out, err := json.Marshal(a)
				if err != nil {
					return "", "", false
				}
				return n, string(out), true
			}
		}
	}
	return "", "", false
}

// wcgwBash maps wcgw's BashCommand: a command in action_json runs; input to a running command
// has no equivalent here.
func wcgwBash(args map[string]any) (string, string) {
	payload := objectOf(args["action_json"])
	if _, isText := args["command"].(string); payload == nil && isText {
		return "", "" // bash_command {"command": …}: a shell call under a name that folds to wcgw's
	}
	if payload == nil {
		return "", "action_json must hold the command: {\"command\": \"…\"}"
	}
	for _, k := range []string{"send_text", "send_specials", "send_ascii", "status_check"} {
		if _, ok := payload[k]; ok {
			return "", k + " (input to a running command) has no equivalent: run the command with its input piped in"
		}
	}
	delete(args, "action_json")
	delete(args, "thread_id")
	if s, ok := args["wait_for_seconds"]; ok {
		delete(args, "wait_for_seconds")
		args["timeout_s"] = s
	}
	for k, v := range payload {
		if k != "type" {
			args[k] = v
		}
	}
	return "", ""
}

// wcgwWriteOrEdit maps wcgw's FileWriteOrEdit: one SEARCH/REPLACE block is an edit (several
// are split by Split), anything else is the whole file's new content.
func wcgwWriteOrEdit(args map[string]any) (string, string) {
	text, _ := args["text_or_search_replace_blocks"].(string)
	for _, k := range []string{"text_or_search_replace_blocks", "percentage_to_change", "thread_id"} {
		delete(args, k)
	}
	if blocks, problem := parseSearchReplace(text); problem == "" {
		if len(blocks) > 1 {
			return "", fmt.Sprintf("it has %d SEARCH/REPLACE blocks; send one edit_file per block, in order", len(blocks))
		}
		args["old_string"], args["new_string"] = blocks[0].old, blocks[0].new
		return "edit_file", ""
	}
	if strings.Contains(text, "SEARCH") && strings.Contains(text, "REPLACE") && strings.Contains(text, "=======") {
		return "", "its SEARCH/REPLACE blocks cannot be read; send edit_file with path, old_string and new_string"
	}
	args["content"] = text
	return "write_file", ""
}

// wcgwBlocks splits FileWriteOrEdit's SEARCH/REPLACE blocks into one edit each (split.go).
func wcgwBlocks(args map[string]any) ([]map[string]any, bool) {
	text, _ := args["text_or_search_replace_blocks"].(string)
	blocks, problem := parseSearchReplace(text)
	if problem != "" {
		return nil, false
	}
	var out []map[string]any
	for _, b := range blocks {
		m := map[string]any{pieceTool: "edit_file", "old_string": b.old, "new_string": b.new}
		if p, ok := args["file_path"]; ok {
			m["path"] = p
		}
		out = append(out, m)
	}
	return out, true
}
