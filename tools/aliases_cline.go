package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// The tools of Cline, Roo Code and Kilo Code, as their system prompts teach them (the
// <tool_name><param>value</param></tool_name> form, read by tools/textcall's xmltag scanner):
// execute_command (command, requires_approval; Roo's cwd), read_file (path), write_to_file
// (path, content; Roo's line_count), replace_in_file (Cline: path, diff) and apply_diff (Roo,
// Kilo: path, diff), search_files (path, regex, file_pattern), list_files (path, recursive),
// search_and_replace (Roo: path, search, replace, use_regex), use_mcp_tool (server_name,
// tool_name, arguments: that MCP server's tool). The diff is one or more
// SEARCH/REPLACE blocks; one block is one edit_file, several are split into one edit_file
// each, in order (split.go). Their entries are in harnessTools (aliases_harness.go).

// Block markers. Void's edit_file (search_replace_blocks) and Aider's first edit format write
// "<<<<<<< ORIGINAL", "=======", ">>>>>>> UPDATED", often in a ``` fence. Cline writes "------- SEARCH", "=======", "+++++++ REPLACE"; Roo, Kilo and
// Aider write "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", Roo with ":start_line:N" and a
// "-------" line after the opening marker.
var (
	searchMarker  = lazyre.New(`^\s*(?:-{3,}|<{3,})\s*(?:SEARCH>?|ORIGINAL)\s*$`)
	dividerMarker = lazyre.New(`^\s*={3,}\s*$`)
	replaceMarker = lazyre.New(`^\s*(?:\+{3,}|>{3,})\s*(?:REPLACE<?|UPDATED)\s*$`)
	lineHint      = lazyre.New(`^\s*:(?:start|end)_line:\s*\d*\s*$`)
	hintEnd       = lazyre.New(`^\s*-{3,}\s*$`)
)

// searchReplaceBlock is one SEARCH/REPLACE block.
type searchReplaceBlock struct{ old, new string }

// parseSearchReplace reads a diff made only of SEARCH/REPLACE blocks (blank lines between
// them); problem says what is wrong when it is not.
func parseSearchReplace(diff string) ([]searchReplaceBlock, string) {
	lines := strings.Split(strings.ReplaceAll(diff, "\r\n", "\n"), "\n")
	var blocks []searchReplaceBlock
	for i := 0; i < len(lines); {
		if t := strings.TrimSpace(lines[i]); t == "" || strings.HasPrefix(t, "```") {
			i++
			continue
		}
		if !searchMarker.MatchString(lines[i]) {
			return nil, fmt.Sprintf("line %d, %q, does not open a block: each starts with ------- SEARCH (or <<<<<<< SEARCH)", i+1, lines[i])
		}
		i++
		for i < len(lines) && lineHint.MatchString(lines[i]) {
			i++
		}
		if i < len(lines) && hintEnd.MatchString(lines[i]) && !searchMarker.MatchString(lines[i]) {
			i++
		}
		var old, repl []string
		for ; i < len(lines) && !dividerMarker.MatchString(lines[i]); i++ {
			old = append(old, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Sprintf("block %d has no ======= line", len(blocks)+1)
		}
		for i++; i < len(lines) && !replaceMarker.MatchString(lines[i]); i++ {
			repl = append(repl, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Sprintf("block %d has no +++++++ REPLACE (or >>>>>>> REPLACE) line", len(blocks)+1)
		}
		i++
		if len(old) == 0 {
			return nil, fmt.Sprintf("block %d has an empty SEARCH part; give the exact lines to replace (write_file creates a file)", len(blocks)+1)
		}
		blocks = append(blocks, searchReplaceBlock{old: strings.Join(old, "\n"), new: strings.Join(repl, "\n")})
	}
	if len(blocks) == 0 {
		return nil, "it has no SEARCH/REPLACE block"
	}
	return blocks, ""
}

// diffKeys are the names a diff of SEARCH/REPLACE blocks goes by: Cline's and Roo's diff,
// Void's search_replace_blocks, Continue's diffs (a list of them).
var diffKeys = []string{"diff", "search_replace_blocks", "diffs"}

// takeDiff removes the diff from args and returns its text (a list's diffs one after another).
func takeDiff(args map[string]any) string {
	for _, k := range diffKeys {
		v, ok := args[k]
		if !ok {
			continue
		}
		delete(args, k)
		if list, ok := v.([]any); ok {
			parts := make([]string, 0, len(list))
			for _, el := range list {
				if s, ok := el.(string); ok {
					parts = append(parts, s)
				}
			}
			return strings.Join(parts, "\n")
		}
		s, _ := v.(string)
		return s
	}
	return ""
}

// searchReplaceDiff maps a diff of one SEARCH/REPLACE block to edit_file.
func searchReplaceDiff(args map[string]any) (string, string) {
	diff := takeDiff(args)
	blocks, problem := parseSearchReplace(diff)
	switch {
	case problem != "":
		return "", "the diff cannot be read: " + problem
	case len(blocks) > 1:
		return "", fmt.Sprintf("the diff has %d blocks; send one edit_file per block, in order", len(blocks))
	}
	args["old_string"], args["new_string"] = blocks[0].old, blocks[0].new
	return "", ""
}

// blockPieces splits a diff of SEARCH/REPLACE blocks into one edit each (split.go).
func blockPieces(args map[string]any) ([]map[string]any, bool) {
	rest := map[string]any{}
	for k, v := range args {
		rest[k] = v
	}
	blocks, problem := parseSearchReplace(takeDiff(rest))
	if problem != "" {
		return nil, false
	}
	var out []map[string]any
	for _, b := range blocks {
		m := map[string]any{}
		for k, v := range rest {
			m[k] = v
		}
		m["old_string"], m["new_string"] = b.old, b.new
		out = append(out, m)
	}
	return out, true
}

// listFiles maps list_files: recursive lists the whole tree; false or left out lists the top
// level only, as Cline's and Roo's prompts define it ("Use true for recursive listing, false
// or omit for top-level only").
func listFiles(args map[string]any) (string, string) {
	rec := args["recursive"]
	delete(args, "recursive")
	depth := 1
	if on, _ := rec.(bool); on || strings.EqualFold(fmt.Sprint(rec), "true") {
		depth = listMaxDepth
	}
	if args["depth"] == nil {
		args["depth"] = json.Number(fmt.Sprint(depth))
	}
	return "", ""
}

// lsRecursive maps an ls whose recursive, when given, decides as list_files' does; without
// it the harnesses differ (Continue's and Pi's list the top level, Crush's the tree), so our
// default depth stands.
func lsRecursive(args map[string]any) (string, string) {
	if _, ok := args["recursive"]; ok {
		return listFiles(args)
	}
	return "", ""
}

// rooSearchAndReplace maps Roo's search_and_replace, which replaces every match of a literal.
func rooSearchAndReplace(args map[string]any) (string, string) {
	if on, _ := args["use_regex"].(bool); on || strings.EqualFold(fmt.Sprint(args["use_regex"]), "true") {
		return "", "use_regex has no equivalent: edit_file replaces exact text; send the literal text as old_string"
	}
	if _, ranged := args["start_line"]; ranged {
		return "", "start_line/end_line have no equivalent: edit_file finds old_string anywhere; include enough lines to make it unique"
	}
	if on, _ := args["ignore_case"].(bool); on || strings.EqualFold(fmt.Sprint(args["ignore_case"]), "true") {
		return "", "ignore_case has no equivalent: edit_file matches the text exactly as sent"
	}
	for _, k := range []string{"use_regex", "ignore_case", "end_line"} {
		delete(args, k)
	}
	if s, ok := args["search"]; ok {
		args["old_string"] = s
		delete(args, "search")
	}
	if s, ok := args["replace"]; ok {
		args["new_string"] = s
		delete(args, "replace")
	}
	args["replace_all"] = true
	return "", ""
}

// clineMCPTool maps use_mcp_tool (server_name, tool_name, arguments: a JSON object, or the
// JSON text of one as the XML form writes it) to that server's tool as this session offers it
// (MCPToolName); a server or tool the session does not have is refused by retarget.
func clineMCPTool(args map[string]any) (string, string) {
	server, _ := args["server_name"].(string)
	tool, _ := args["tool_name"].(string)
	if strings.TrimSpace(server) == "" || strings.TrimSpace(tool) == "" {
		return "", "use_mcp_tool needs server_name and tool_name"
	}
	inner := map[string]any{}
	switch v := args["arguments"].(type) {
	case map[string]any:
		inner = v
	case string:
		if strings.TrimSpace(v) != "" && decodeNumbers(v, &inner) != nil {
			return "", "its arguments are not a JSON object"
		}
	case nil:
	default:
		return "", "its arguments are not a JSON object"
	}
	clear(args)
	for k, v := range inner {
		args[k] = v
	}
	return MCPToolName(strings.TrimSpace(server), strings.TrimSpace(tool)), ""
}
