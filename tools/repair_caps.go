package tools

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
)

// Search options other harnesses' tools declare and ours lack, sent to our search tools:
//   - result caps: Pi's grep, find and ls take limit, Claude Code's Grep head_limit, Codex's
//     grep_files limit, gpt-oss's repo_browser.search max_results, ripgrep's max_count. A cap
//     only shortens what a read-only search prints, so on a tool that declares none it is
//     dropped (read_file declares limit: there it keeps its meaning);
//   - paging: Codex's list_dir (dir_path, offset, limit, depth) pages through entries, Void's
//     tools take page_number; the first page (page 1, entry offset 1) is the default, and a
//     listing's or search's later page only shapes what a read-only call prints;
//   - Codex's read_file mode: "slice" (the default) reads offset and limit as ours do, and
//     "indentation" (with its indentation options) a block around a line: both are a read of
//     the file from offset;
//   - literal patterns: Pi's grep literal, ripgrep's fixed_strings, Windsurf's IsRegex false.
//     The text is searched as written, so it is quoted into our regular expression.

// capKeys are the normalized names of result caps.
var capKeys = []string{"limit", "maxresults", "headlimit", "maxcount", "maxmatches", "maxresultcount", "offset", "pagenumber", "page"}

// resultCaps drops the numeric result caps a closed search or listing schema (a pattern, or a
// depth) does not declare.
func (s *argsSchema) resultCaps(args map[string]any) []Repair {
	if !s.closed || !(s.has("pattern") || s.has("depth")) || s.has("limit") || s.has("content") || s.has("command") {
		return nil
	}
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		if s.has(key) || !slices.Contains(capKeys, normalizedName(key)) {
			continue
		}
		if _, isNum := intOf(args[key]); !isNum {
			continue
		}
		repairs = append(repairs, newRepair(RepairDroppedNote, fmt.Sprintf("%s: %v (a result cap)", key, args[key]), ""))
		delete(args, key)
	}
	return repairs
}

// firstPage drops a page number of 1 (the default) from a closed schema without one, and
// Codex's read modes from a file reader (a schema with offset and limit).
func (s *argsSchema) firstPage(args map[string]any) []Repair {
	if !s.closed {
		return nil
	}
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		n, isInt := intOf(args[key])
		switch norm := normalizedName(key); {
		case s.has(key):
			continue
		case (norm == "pagenumber" || norm == "page") && isInt && n == 1:
		case norm == "mode" && s.has("offset") && s.has("limit") && (args[key] == "slice" || args[key] == "indentation"):
		case norm == "indentation" && s.has("offset") && objectOf(args[key]) != nil:
		default:
			continue
		}
		repairs = append(repairs, newRepair(RepairDroppedNote, fmt.Sprintf("%s: %v", key, args[key]), ""))
		delete(args, key)
	}
	return repairs
}

// literalPattern quotes the pattern of a search marked literal, into a schema whose pattern is
// a regular expression (a grep with context, as ours), and drops the mark.
func (s *argsSchema) literalPattern(args map[string]any) []Repair {
	p, ok := args["pattern"].(string)
	if !ok || !s.has("pattern") || !s.has("context") {
		return nil
	}
	for _, key := range slices.Sorted(maps.Keys(args)) {
		on, isBool := boolOf(args[key])
		if s.has(key) || !isBool {
			continue
		}
		switch normalizedName(key) {
		case "literal", "fixedstrings", "fixedstring", "literaltext": // Crush's grep: literal_text
		case "isregex", "useregex":
			on = !on
		default:
			continue
		}
		before := fmt.Sprintf("%s: %v", key, args[key])
		delete(args, key)
		if on {
			args["pattern"] = regexp.QuoteMeta(p)
		}
		return []Repair{newRepair(RepairArgAlias, before, "pattern: "+preview(args["pattern"].(string)))}
	}
	return nil
}
