package tools

import (
	"fmt"
	"strings"
)

// gpt-oss's repo_browser tools: the model was trained against a repository browser whose calls
// it still makes when it is given other tools (Harmony "to=repo_browser.print_tree"). The
// harnesses that serve it map the same names, which their code lists: open_file, read_file,
// cat and read_file_lines read a file (path, line_start, line_end: repair_lines.go);
// print_tree (path, depth), list_files, list_directory, ls and ls_path list a directory; search
// (query, path, max_results) searches contents; exec, run_command and run_command_output run a
// command; write_file writes. A name that is ours or another harness's after the namespace is
// stripped (toolnames_namespace.go); these are the rest. An empty path is the repository root
// (repair_paths.go drops it).
//
// search is keyed with its namespace: a bare "search" is as often a web search.

// repoBrowserSearch maps repo_browser.search (query, path, max_results) to grep: the query is
// the pattern (the aliases rename it), the result cap has no equivalent.
func repoBrowserSearch(args map[string]any) (string, string) {
	for _, k := range []string{"max_results", "max_matches", "limit"} {
		delete(args, k)
	}
	return "", ""
}

// Open Interpreter's one tool, execute (language, code), runs code in a language's kernel; its
// shell languages (shell, bash, sh, zsh) are a bash command here. Other languages have no
// equivalent: the refusal says so, as a harness's execute {command} without a language is the
// command itself.
func interpreterExecute(args map[string]any) (string, string) {
	lang, hasLang := args["language"].(string)
	code, hasCode := args["code"].(string)
	if !hasLang {
		if _, ok := args["command"]; ok && !hasCode {
			return "", ""
		}
	}
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "shell", "bash", "sh", "zsh":
	default:
		return "", fmt.Sprintf("language %q has no equivalent here: bash runs shell commands; run that code through its interpreter in a bash command", lang)
	}
	if !hasCode {
		return "", "code is required: the shell command to run"
	}
	delete(args, "language")
	delete(args, "code")
	args["command"] = code
	return "", ""
}

// llm-functions' fs_patch (path, contents) applies a unified diff to one file; its hunks may
// come without the ---/+++ header, which the path then gives.
func fsPatch(args map[string]any) (string, string) {
	p, _ := args["path"].(string)
	text, _ := args["contents"].(string)
	if strings.TrimSpace(p) == "" || strings.TrimSpace(text) == "" {
		return "", "path and contents (the patch) are required"
	}
	if !strings.HasPrefix(strings.TrimSpace(text), "---") {
		text = "--- a/" + p + "\n+++ b/" + p + "\n" + text
	}
	delete(args, "contents")
	args["patch"] = text
	return applyPatch(args)
}

// piFind maps Pi's find (pattern, path, limit), a glob over file names at any depth (fd's
// --glob), to our glob, whose pattern is relative to path: a pattern without a directory
// matches at any depth. A pattern that is no glob and no file name (gpt-oss's browser.find
// looks for words in a page) is refused.
func piFind(args map[string]any) (string, string) {
	p, _ := args["pattern"].(string)
	if !strings.ContainsAny(p, "*?[{.") {
		return "", fmt.Sprintf("pattern %q is not a file name or glob (e.g. *.go); to search file contents use grep", p)
	}
	if !strings.Contains(p, "/") && !strings.HasPrefix(p, "**") {
		args["pattern"] = "**/" + p
	}
	return "", ""
}
