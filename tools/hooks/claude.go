package hooks

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// Claude Code's names for our tools. A matcher may use either; a hook from a Claude Code
// settings file reads and writes these names and Claude Code's input fields.
var claudeNames = map[string]string{
	"bash":       "Bash",
	"read_file":  "Read",
	"write_file": "Write",
	"edit_file":  "Edit",
	"grep":       "Grep",
	"glob":       "Glob",
	"list_dir":   "LS",
	"web_fetch":  "WebFetch",
}

func claudeName(ours string) (string, bool) {
	cc, ok := claudeNames[ours]
	return cc, ok
}

// oursFor is our tool for Claude Code's name (MultiEdit is not one a hook is shown).
func oursFor(cc string) (string, bool) {
	for ours, name := range claudeNames {
		if name == cc {
			return ours, true
		}
	}
	return "", false
}

// renames are our argument names and Claude Code's, per tool; paths become absolute on the way
// out and workspace-relative on the way back.
var renames = map[string]map[string]string{
	"bash":       {"background": "run_in_background"},
	"read_file":  {"path": "file_path"},
	"write_file": {"path": "file_path"},
	"edit_file":  {"path": "file_path"},
	"grep":       {"context": "-C"},
}

// pathKeys are the arguments, by their Claude Code names, that hold a path.
var pathKeys = []string{"file_path", "path"}

// ToClaude turns a call of our tool into what a Claude Code hook expects: its tool name and
// input, with absolute paths (root is the workspace) and Bash's timeout in milliseconds. A
// tool Claude Code does not have keeps its name and arguments.
func ToClaude(tool string, args json.RawMessage, root string) (string, json.RawMessage) {
	cc, ok := claudeName(tool)
	var m map[string]any
	if !ok || json.Unmarshal(args, &m) != nil || m == nil {
		return tool, args
	}
	for from, to := range renames[tool] {
		if v, ok := m[from]; ok {
			delete(m, from)
			m[to] = v
		}
	}
	if tool == "bash" {
		if s, ok := number(m["timeout_s"]); ok {
			delete(m, "timeout_s")
			m["timeout"] = s * 1000
		}
	}
	for _, k := range pathKeys {
		if p, ok := m[k].(string); ok && p != "" && !filepath.IsAbs(p) {
			m[k] = filepath.Join(root, p)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return tool, args
	}
	return cc, out
}

// FromClaude turns a Claude Code hook's tool input (updatedInput) for our tool back into our
// arguments: names mapped back, paths inside root made relative, Bash's milliseconds rounded up
// to seconds. Arguments it does not know are kept for the schema to judge.
func FromClaude(tool string, input json.RawMessage, root string) json.RawMessage {
	var m map[string]any
	if _, ok := claudeName(tool); !ok || json.Unmarshal(input, &m) != nil || m == nil {
		return input
	}
	for _, k := range pathKeys {
		if p, ok := m[k].(string); ok && filepath.IsAbs(p) {
			if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				m[k] = rel
			}
		}
	}
	for ours, theirs := range renames[tool] {
		if v, ok := m[theirs]; ok {
			delete(m, theirs)
			m[ours] = v
		}
	}
	if tool == "bash" {
		if ms, ok := number(m["timeout"]); ok {
			delete(m, "timeout")
			m["timeout_s"] = (ms + 999) / 1000
		}
		delete(m, "description")
	}
	out, err := json.Marshal(m)
	if err != nil {
		return input
	}
	return out
}

func number(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || f < 0 {
		return 0, false
	}
	return int(f), true
}

// claudeResponse is a tool's result as a Claude Code hook reads tool_response: the fields its
// tools return (stdout and stderr for Bash, filePath for the file tools, success) beside ours.
func claudeResponse(tool string, input map[string]any, output string, isError bool) map[string]any {
	r := map[string]any{"output": output, "is_error": isError, "success": !isError}
	switch tool {
	case "bash":
		r["stdout"], r["stderr"], r["interrupted"] = output, "", false
	case "read_file", "write_file", "edit_file":
		r["filePath"] = input["file_path"]
	}
	return r
}
