package tools

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Void's tools, as its prompt defines them (src/vs/workbench/contrib/void/common/prompt/
// prompts.ts): read_file (uri, start_line, end_line, page_number), ls_dir (uri, page_number),
// get_dir_tree (uri), search_pathnames_only (query, include_pattern, page_number),
// search_for_files (query, search_in_folder, is_regex, page_number), search_in_file (uri,
// query, is_regex), edit_file (uri, search_replace_blocks of <<<<<<< ORIGINAL … >>>>>>> UPDATED
// blocks: aliases_cline.go), rewrite_file (uri, new_content), run_command and
// run_persistent_command (command, cwd, persistent_terminal_id). uri is a path (aliases.go);
// its searches take the query as literal text unless is_regex is true.

// voidSearch maps search_for_files and search_in_file to grep: the query quoted unless it is
// a regex.
func voidSearch(args map[string]any) (string, string) {
	q, _ := args["query"].(string)
	if q == "" {
		return "", "query is required"
	}
	isRegex, _ := boolOf(args["is_regex"])
	delete(args, "query")
	delete(args, "is_regex")
	delete(args, "page_number")
	if !isRegex {
		q = regexp.QuoteMeta(q)
	}
	args["pattern"] = q
	return "", ""
}

// voidPathnames maps search_pathnames_only, which matches its query in file names, to glob:
// a query that is not a glob matches anywhere in a name. include_pattern only narrows a
// read-only listing.
func voidPathnames(args map[string]any) (string, string) {
	q, _ := args["query"].(string)
	if strings.TrimSpace(q) == "" {
		return "", "query is required"
	}
	delete(args, "query")
	delete(args, "include_pattern")
	delete(args, "page_number")
	if !strings.ContainsAny(q, "*?[{") {
		q = "**/*" + q + "*"
	}
	args["pattern"] = q
	return "", ""
}

// voidTree maps get_dir_tree, the whole tree under uri, to list_dir at its deepest.
func voidTree(args map[string]any) (string, string) {
	if args["depth"] == nil {
		args["depth"] = json.Number(fmt.Sprint(listMaxDepth))
	}
	return "", ""
}

// patchTool maps the patch tools of Hermes Agent (patch: mode "replace" with path, old_string
// and new_string, or mode "patch" with a patch) and opencode (patch: patchText, a Codex
// patch): a patch is read as Codex's or a unified diff (aliases_patch.go), a replacement is
// an edit.
func patchTool(args map[string]any) (string, string) {
	for _, k := range []string{"patchText", "patch_text", "patch", "input"} {
		if text, ok := args[k].(string); ok && strings.TrimSpace(text) != "" {
			return patchCall(args, text, "")
		}
	}
	if mode, _ := args["mode"].(string); mode != "" && mode != "replace" {
		return "", fmt.Sprintf("mode %q needs a patch: send the patch text, or mode replace with path, old_string and new_string", mode)
	}
	delete(args, "mode")
	return "edit_file", ""
}

// sweOpen maps SWE-agent's open (path, line_number), which shows a 100-line window around the
// line, to read_file of that window.
func sweOpen(args map[string]any) (string, string) {
	v, ok := args["line_number"]
	delete(args, "line_number")
	if !ok {
		return "", ""
	}
	n, isInt := intOf(v)
	if !isInt || n < 1 {
		return "", fmt.Sprintf("line_number must be a line number, got %v", v)
	}
	args["offset"] = json.Number(fmt.Sprint(max(1, n-sweWindow/2)))
	args["limit"] = json.Number(fmt.Sprint(sweWindow))
	return "", ""
}

// sweWindow is SWE-agent's editor window, in lines.
const sweWindow = 100

// createWithText maps a create with its text (Anthropic's text editor's create command sent
// as a tool: path, file_text) to write_file; SWE-agent's create, a name only, makes an empty
// file that may already exist, so it is refused.
func createWithText(args map[string]any) (string, string) {
	for _, k := range []string{"file_text", "content", "text", "contents"} {
		if _, ok := args[k]; ok {
			return "", ""
		}
	}
	return "", "create needs the file's content: call write_file with path and content"
}
