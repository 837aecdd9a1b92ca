package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The tools of IDE agents whose system prompts are published and whose names models echo
// elsewhere, as those definitions declare them:
//   - Windsurf (Cascade): run_command {CommandLine, Cwd, Blocking, WaitMsBeforeAsync,
//     SafeToAutoRun}, write_to_file {TargetFile, CodeContent, EmptyFile}, find_by_name
//     {SearchDirectory, Pattern, Extensions, Excludes, Type, MaxDepth, FullPath}, grep_search
//     {SearchPath, Query, Includes, CaseInsensitive, MatchPerLine};
//   - Cursor: run_terminal_cmd {command, is_background}, grep_search {query, include_pattern,
//     exclude_pattern, case_sensitive}, list_dir {relative_workspace_path};
//   - Augment: launch-process {command, wait, max_wait_seconds, cwd};
//   - Zed: find_path {glob}, grep {regex, include_pattern, case_sensitive}, terminal
//     {command, cd}.
//
// Argument names the generic aliases cover (aliases.go) are left to them; the working
// directory of a command (Cwd, cwd, cd) becomes a cd before it (workingDirectory), and a
// search's case switch folds into its pattern (caseFlags). What only shapes output
// (MatchPerLine, exclude patterns of a read-only search) is dropped.

// windsurfCommand maps Windsurf's run_command: a command not blocking the agent runs in the
// background.
func windsurfCommand(args map[string]any) (string, string) {
	for _, k := range []string{"WaitMsBeforeAsync", "SafeToAutoRun"} {
		delete(args, k)
	}
	if b, ok := args["Blocking"].(bool); ok {
		delete(args, "Blocking")
		if !b {
			args["background"] = true
		}
	}
	return "", ""
}

// augmentProcess maps Augment's launch-process: wait false starts it in the background.
func augmentProcess(args map[string]any) (string, string) {
	if w, ok := args["wait"].(bool); ok {
		delete(args, "wait")
		if !w {
			args["background"] = true
			delete(args, "max_wait_seconds")
		}
	}
	return "", ""
}

// windsurfFind maps Windsurf's find_by_name, which matches file names at any depth under
// SearchDirectory (its Pattern, or its Extensions), to glob.
func windsurfFind(args map[string]any) (string, string) {
	pattern, _ := args["Pattern"].(string)
	delete(args, "Pattern")
	if exts, ok := listArg(args["Extensions"]); ok && len(exts) == 1 && (pattern == "" || pattern == "*") {
		if e, ok := exts[0].(string); ok && fileType.MatchString(strings.TrimPrefix(e, ".")) {
			pattern = "*." + strings.TrimPrefix(e, ".")
		}
	}
	if _, many := listArg(args["Extensions"]); many && pattern == "" {
		return "", "Extensions of several kinds have no one glob; call glob once per extension"
	}
	if pattern == "" {
		return "", "Pattern is required"
	}
	for _, k := range []string{"Extensions", "Excludes", "Type", "MaxDepth", "FullPath"} {
		delete(args, k)
	}
	if !strings.Contains(pattern, "/") && !strings.HasPrefix(pattern, "**") {
		pattern = "**/" + pattern
	}
	args["pattern"] = pattern
	return "", ""
}

// emptyFile maps Windsurf's EmptyFile on write_to_file: true with no content writes an empty
// file; otherwise it says nothing.
func emptyFile(args map[string]any) (string, string) {
	empty, _ := args["EmptyFile"].(bool)
	delete(args, "EmptyFile")
	_, has := args["content"]
	_, hasCode := args["CodeContent"]
	if empty && !has && !hasCode {
		args["content"] = ""
	}
	return "", ""
}

// workingDirectory turns the working directory a command is given (Windsurf's Cwd, Augment's
// and Cline's cwd, Zed's cd, workdir, working_directory) into a cd before the command, for a
// schema with a command and no such argument of its own.
func (s *argsSchema) workingDirectory(args map[string]any) []Repair {
	cmd, ok := args["command"].(string)
	if !ok || !s.has("command") {
		return nil
	}
	for key, v := range args {
		switch normalizedName(key) {
		case "cwd", "cd", "workdir", "workingdirectory", "workingdir", "directory", "dir", "rundir":
		default:
			continue
		}
		dir, isText := v.(string)
		if !isText || s.has(key) {
			continue
		}
		delete(args, key)
		args["command"] = cdThen(dir, cmd)
		return []Repair{newRepair(RepairShellForm, fmt.Sprintf("%s: %q", key, dir), "command: "+preview(args["command"].(string)))}
	}
	return nil
}

// caseFlags folds a search's case switch into the pattern: Cursor's and Zed's case_sensitive
// false, Windsurf's CaseInsensitive true; and Windsurf's Includes of one glob into glob.
func (s *argsSchema) caseFlags(args map[string]any) []Repair {
	if !s.has("pattern") || !s.has("glob") {
		return nil
	}
	var repairs []Repair
	insensitive := false
	for key, v := range args {
		var on bool
		switch normalizedName(key) {
		case "casesensitive":
			b, ok := boolOf(v)
			if !ok {
				continue
			}
			on = !b
		case "caseinsensitive", "ignorecase":
			b, ok := boolOf(v)
			if !ok {
				continue
			}
			on = b
		default:
			continue
		}
		delete(args, key)
		insensitive = insensitive || on
		repairs = append(repairs, newRepair(RepairArgAlias, key, "pattern"))
	}
	if p, ok := args["pattern"].(string); ok && insensitive && !strings.HasPrefix(p, "(?i)") {
		args["pattern"] = "(?i)" + p
	}
	if list, ok := listArg(args["Includes"]); ok && len(list) == 1 && args["glob"] == nil {
		if g, ok := list[0].(string); ok {
			args["glob"] = g
			delete(args, "Includes")
			repairs = append(repairs, newRepair(RepairArgAlias, "Includes", "glob"))
		}
	}
	return repairs
}

// boolOf reads a boolean, also as the text true or false.
func boolOf(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	case json.Number:
		return x != "0", true
	}
	return false, false
}

// augmentSearch maps Augment's view with search_query_regex (and its context_lines_before and
// context_lines_after) to grep in that file.
func augmentSearch(args map[string]any, re string) (string, string) {
	width := int64(-1)
	for _, k := range []string{"context_lines_before", "context_lines_after"} {
		if n, ok := intOf(args[k]); ok && n > width {
			width = n
		}
		delete(args, k)
	}
	delete(args, "search_query_regex")
	delete(args, "view_range")
	if on, ok := boolOf(args["case_sensitive"]); ok && !on {
		re = "(?i)" + re
	}
	delete(args, "case_sensitive")
	args["pattern"] = re
	if width >= 0 {
		args["context"] = json.Number(fmt.Sprint(min(width, 10)))
	}
	return "grep", ""
}
