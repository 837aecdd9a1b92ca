package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// The argument defects of the "args" family: a persona has one of them.
var argDefects = []string{"alias", "python_literal", "double_encoded", "wrapper_arguments", "wrapper_input", "coercion"}

// aliases are argument names other harnesses and models use for ours.
var aliases = map[string]string{"path": "file_path", "command": "cmd", "old_string": "old_str", "new_string": "new_str",
	"content": "text", "pattern": "query"}

// defectArgs writes args with the defect.
func defectArgs(defect string, args map[string]any) string {
	switch defect {
	case "alias":
		out := map[string]any{}
		for k, v := range args {
			if a, ok := aliases[k]; ok {
				k = a
			}
			out[k] = v
		}
		return jsonText(out)
	case "python_literal":
		return pythonDict(args)
	case "double_encoded":
		return jsonText(jsonText(args))
	case "wrapper_arguments":
		return jsonText(map[string]any{"arguments": args})
	case "wrapper_input":
		return jsonText(map[string]any{"input": args})
	case "coercion": // numbers and booleans sent as strings
		out := map[string]any{}
		for k, v := range args {
			switch v.(type) {
			case float64, bool:
				v = fmt.Sprint(v)
			}
			out[k] = v
		}
		return jsonText(out)
	}
	return jsonText(args)
}

// hasScalars says whether args holds a number or a boolean (something to coerce).
func hasScalars(args map[string]any) bool {
	for _, v := range args {
		switch v.(type) {
		case float64, bool:
			return true
		}
	}
	return false
}

// pythonDict writes args as a Python dict literal: single quotes, True/False/None.
func pythonDict(args map[string]any) string {
	parts := make([]string, 0, len(args))
	for _, k := range slices.Sorted(maps.Keys(args)) {
		parts = append(parts, fmt.Sprintf("'%s': %s", k, pythonLiteral(args[k], "'")))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// The other harnesses of the "tool_name" family: a persona calls its tools by one of them.
var harnesses = []string{"claude_code", "codex", "gemini_cli", "openhands"}

// harnessCall writes the step the way a model trained on harness calls it: that harness's tool
// names and argument names (and its absolute paths, under the workspace root).
func harnessCall(harness string, s Step, args map[string]any, root string) (name, argsText string) {
	str := func(k string) string { v, _ := args[k].(string); return v }
	abs := func(k string) string { return filepath.Join(root, str(k)) }
	with := func(m map[string]any, keep ...string) map[string]any {
		for _, k := range keep {
			if v, ok := args[k]; ok {
				m[k] = v
			}
		}
		return m
	}
	var a map[string]any
	switch harness + " " + s.Name {
	case "claude_code read_file":
		name, a = "Read", with(map[string]any{"file_path": abs("path")}, "offset", "limit")
	case "claude_code edit_file":
		name, a = "Edit", with(map[string]any{"file_path": abs("path")}, "old_string", "new_string", "replace_all")
	case "claude_code write_file":
		name, a = "Write", map[string]any{"file_path": abs("path"), "content": args["content"]}
	case "claude_code bash":
		name, a = "Bash", map[string]any{"command": args["command"], "description": "Run the command"}
		if t, ok := args["timeout_s"].(float64); ok {
			a["timeout"] = t * 1000
		}
	case "claude_code list_dir":
		name, a = "LS", map[string]any{"path": abs("path")}
	case "claude_code grep":
		name, a = "Grep", with(map[string]any{}, "pattern", "path", "glob")

	case "codex read_file":
		cmd := "cat " + shellQuote(str("path"))
		if n, ok := args["limit"].(float64); ok {
			cmd = fmt.Sprintf("sed -n '1,%dp' %s", int(n), shellQuote(str("path")))
		}
		name, a = "shell", codexShell(cmd, args, root)
	case "codex list_dir":
		name, a = "shell", codexShell("ls -la "+shellQuote(str("path")), args, root)
	case "codex grep":
		name, a = "shell", codexShell("grep -rn "+shellQuote(str("pattern"))+" .", args, root)
	case "codex bash":
		name, a = "shell", codexShell(str("command"), args, root)
	case "codex write_file":
		name, a = "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Add File: " + str("path") + "\n" +
			patchLines("+", str("content")) + "*** End Patch"}
	case "codex edit_file":
		name, a = "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: " + str("path") + "\n@@\n" +
			patchLines("-", str("old_string")) + patchLines("+", str("new_string")) + "*** End Patch"}

	case "gemini_cli read_file":
		name, a = "read_file", with(map[string]any{"absolute_path": abs("path")}, "offset", "limit")
	case "gemini_cli edit_file":
		name, a = "replace", with(map[string]any{"file_path": abs("path")}, "old_string", "new_string")
	case "gemini_cli write_file":
		name, a = "write_file", map[string]any{"file_path": abs("path"), "content": args["content"]}
	case "gemini_cli bash":
		name, a = "run_shell_command", map[string]any{"command": args["command"], "description": "Run the command"}
	case "gemini_cli list_dir":
		name, a = "list_directory", map[string]any{"path": abs("path")}
	case "gemini_cli grep":
		name, a = "search_file_content", with(map[string]any{}, "pattern", "path")

	case "openhands read_file":
		name, a = "str_replace_editor", map[string]any{"command": "view", "path": abs("path")}
		if n, ok := args["limit"].(float64); ok {
			a["view_range"] = []float64{1, n}
		}
	case "openhands list_dir":
		name, a = "str_replace_editor", map[string]any{"command": "view", "path": abs("path")}
	case "openhands edit_file":
		name, a = "str_replace_editor", map[string]any{"command": "str_replace", "path": abs("path"),
			"old_str": args["old_string"], "new_str": args["new_string"]}
	case "openhands write_file":
		name, a = "str_replace_editor", map[string]any{"command": "create", "path": abs("path"), "file_text": args["content"]}
	case "openhands bash":
		name, a = "execute_bash", with(map[string]any{"command": args["command"]}, "timeout_s")
		if t, ok := a["timeout_s"]; ok {
			delete(a, "timeout_s")
			a["timeout"] = t
		}
	case "openhands grep":
		name, a = "execute_bash", map[string]any{"command": "grep -rn " + shellQuote(str("pattern")) + " ."}
	default:
		return s.Name, jsonText(args)
	}
	return name, jsonText(a)
}

// codexShell is Codex's shell call: an argv list, the working directory and a timeout in ms.
func codexShell(command string, args map[string]any, root string) map[string]any {
	a := map[string]any{"command": []string{"bash", "-lc", command}, "workdir": root}
	if t, ok := args["timeout_s"].(float64); ok {
		a["timeout_ms"] = t * 1000
	}
	return a
}

// patchLines prefixes every line of text for an apply_patch hunk.
func patchLines(prefix, text string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		b.WriteString(prefix + l + "\n")
	}
	return b.String()
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
