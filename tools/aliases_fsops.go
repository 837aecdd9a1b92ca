package tools

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// File-system operations no tool of ours is named for, called as tools: the MCP filesystem
// server's create_directory and move_file (its tool definitions), Zed's move_path, copy_path
// and delete_path, Cursor's delete_file and Augment's remove-files, and the shell utilities
// models invent tools for, touch and mkdir, with a path argument (Step 3.5 Flash in opencode
// calls <function=touch> with filePath). Each is that operation as a bash command, its paths
// quoted, so it goes through bash's gate: a write asks first outside yolo. A listing given a
// glob (ls with pattern: data/*) is a glob.

// pathsOf takes the path arguments out of args (path and its aliases, or a list under paths),
// in order; false when there are none or one is not text.
func pathsOf(args map[string]any) ([]string, bool) {
	var out []string
	for _, key := range slices.Sorted(maps.Keys(args)) {
		norm := normalizedName(key)
		if norm != "path" && norm != "paths" && norm != "filepaths" && !slices.Contains(argAliases[norm], "path") {
			continue
		}
		values, isList := listArg(args[key])
		if !isList {
			values = []any{args[key]}
		}
		for _, v := range values {
			p, ok := v.(string)
			if !ok || strings.TrimSpace(p) == "" {
				return nil, false
			}
			out = append(out, strings.TrimSpace(p))
		}
		delete(args, key)
	}
	return out, len(out) > 0
}

// shellOp maps a tool named for a shell utility to that command over its paths.
func shellOp(command string) func(map[string]any) (string, string) {
	return func(args map[string]any) (string, string) {
		paths, ok := pathsOf(args)
		if !ok {
			return "", "path is required"
		}
		var line strings.Builder
		line.WriteString(command)
		for _, p := range paths {
			line.WriteString(" " + operandQuote(p))
		}
		args["command"] = line.String()
		return "", ""
	}
}

// moveFile maps the MCP filesystem server's move_file (source, destination) and Zed's
// move_path (source_path, destination_path) to mv.
func moveFile(args map[string]any) (string, string) {
	return twoPaths(args, "mv")
}

// copyPath maps Zed's copy_path (a file or a directory, recursively) to cp -R.
func copyPath(args map[string]any) (string, string) {
	return twoPaths(args, "cp -R")
}

// twoPaths is command over a source and a destination, under either harness's names.
func twoPaths(args map[string]any, command string) (string, string) {
	var ends [2]string
	for i, keys := range [2][2]string{{"source", "source_path"}, {"destination", "destination_path"}} {
		for _, k := range keys {
			if p, ok := args[k].(string); ok && strings.TrimSpace(p) != "" && ends[i] == "" {
				ends[i] = strings.TrimSpace(p)
				delete(args, k)
			}
		}
	}
	if ends[0] == "" || ends[1] == "" {
		return "", "source and destination are required"
	}
	args["command"] = fmt.Sprintf("%s %s %s", command, operandQuote(ends[0]), operandQuote(ends[1]))
	return "", ""
}

// operandQuote quotes a path as a command's operand: one that starts with '-' gets "./" first,
// so a model's path can never be read as an option of touch, mkdir or mv.
func operandQuote(p string) string {
	if strings.HasPrefix(p, "-") {
		p = "./" + p
	}
	return shellQuote(p)
}

// listingGlob reads a listing tool given a glob pattern (and no other option of a listing) as
// a glob over that pattern; any other listing goes on as before (then).
func listingGlob(then func(map[string]any) (string, string)) func(map[string]any) (string, string) {
	return func(args map[string]any) (string, string) {
		p, ok := args["pattern"].(string)
		if !ok || !strings.ContainsAny(p, "*?[{") {
			if then == nil {
				return "", ""
			}
			return then(args)
		}
		if dir, ok := args["dirPath"]; ok && args["path"] == nil {
			args["path"] = dir
			delete(args, "dirPath")
		}
		return "glob", ""
	}
}
