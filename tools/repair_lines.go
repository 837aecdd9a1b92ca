package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Line ranges of other harnesses' file readers, as their tool definitions declare them, read
// as our offset (first line, 1-based) and limit (how many lines). Each pair names its start
// and end line, both inclusive, counted from zero or one:
//   - GitHub Copilot's read_file before offset/limit: startLineNumberBaseZero and
//     endLineNumberBaseZero (0-based), later startLine and endLine (1-based); an end of -1
//     reads to the end of the file;
//   - VS Code's own ranges (startLineNumber, endLineNumber, 1-based), which models carry over;
//   - Cursor's read_file: start_line_one_indexed, end_line_one_indexed_inclusive, with
//     should_read_entire_file;
//   - start_line / end_line, 1-based, as most harnesses spell them, and Anthropic's text
//     editor's view_range [first, last] (last -1 for the end) sent to a reader that lacks it;
//   - gpt-oss's repo_browser.open_file / read_file: line_start and line_end (1-based, both
//     inclusive), the names its training harness taught it and that harnesses serving it map
//     (read_file_lines, open_file); Void's and others' start / end, from_line / to_line and
//     first_line / last_line.
//
// A range that names its end keeps its first line as offset even when that is line 1, so the
// call reads as the model wrote it (lines 1 to 200); a start alone at line 1 is the default.
//
// The schema decides: only a tool with offset and limit, and neither already given.

// lineRangeKey is one harness's start and end argument names (normalized) and its first line.
type lineRangeKey struct {
	start, end string
	base       int64 // the number of the first line: 0 or 1
}

var lineRangeKeys = []lineRangeKey{
	{"startlinenumberbasezero", "endlinenumberbasezero", 0},
	{"startlinenumber", "endlinenumber", 1},
	{"startlineoneindexed", "endlineoneindexedinclusive", 1},
	{"startline", "endline", 1},
	{"linestart", "lineend", 1},
	{"fromline", "toline", 1},
	{"firstline", "lastline", 1},
	{"start", "end", 1},
}

// lineRange turns a start/end line pair into offset and limit; an end before the start (or
// a start that is not a line number) is left for validation to name.
func (s *argsSchema) lineRange(args map[string]any) []Repair {
	if !s.has("offset") || !s.has("limit") || args["offset"] != nil || args["limit"] != nil {
		return nil
	}
	var repairs []Repair
	if whole, ok := args["should_read_entire_file"].(bool); ok && !s.has("should_read_entire_file") {
		delete(args, "should_read_entire_file")
		repairs = append(repairs, newRepair(RepairArgAlias, "should_read_entire_file", ""))
		if whole {
			for _, k := range slices.Sorted(maps.Keys(args)) {
				if isLineRangeKey(normalizedName(k)) {
					delete(args, k)
				}
			}
			return repairs
		}
	}
	if span, ok := listArg(args["view_range"]); ok && len(span) == 2 && !s.has("view_range") {
		// Anthropic's text editor's view_range: [first, last], 1-based, last -1 for the end
		delete(args, "view_range")
		args["start_line"], args["end_line"] = span[0], span[1]
	}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		// a range under one name: lines "10-20", line_range [10, 20], Amp's read_range
		switch normalizedName(k) {
		case "lines", "linerange", "range", "readrange", "linenumbers":
		default:
			continue
		}
		if first, last, ok := spanOf(args[k]); ok && !s.has(k) {
			delete(args, k)
			args["start_line"], args["end_line"] = first, last
			break
		}
	}
	byNorm := map[string]string{}
	for k := range args {
		if !s.has(k) {
			byNorm[normalizedName(k)] = k
		}
	}
	for _, lr := range lineRangeKeys {
		startKey, hasStart := byNorm[lr.start]
		endKey, hasEnd := byNorm[lr.end]
		if !hasStart && !hasEnd {
			continue
		}
		first := lr.base
		if hasStart {
			n, ok := intOf(args[startKey])
			if !ok || n < lr.base {
				return repairs
			}
			first = n
		}
		offset := first - lr.base + 1
		var limit int64
		if hasEnd {
			last, ok := intOf(args[endKey])
			switch {
			case !ok || last < -1 || (last >= 0 && last < first):
				return repairs
			case last >= 0:
				limit = last - first + 1
			}
		}
		delete(args, startKey)
		delete(args, endKey)
		if offset > 1 || limit > 0 {
			args["offset"] = json.Number(fmt.Sprint(offset))
		}
		if limit > 0 {
			args["limit"] = json.Number(fmt.Sprint(limit))
		}
		return append(repairs, newRepair(RepairArgAlias, fmt.Sprintf("%s..%s", startKey, endKey), fmt.Sprintf("offset %d, limit %d", offset, limit)))
	}
	return repairs
}

func isLineRangeKey(norm string) bool {
	return slices.ContainsFunc(lineRangeKeys, func(lr lineRangeKey) bool { return lr.start == norm || lr.end == norm })
}

// spanSep splits a range written as text: 10-20, 10:20, 10..20, 10,20, 10 to 20.
var spanSep = lazyre.New(`^\s*(\d+)\s*(?:-|:|\.\.|,|to)\s*(-?\d+)\s*$`)

// spanOf reads a range of two line numbers, as a list or as text.
func spanOf(v any) (first, last json.Number, ok bool) {
	if span, isList := listArg(v); isList && len(span) == 2 {
		a, ok1 := intOf(span[0])
		b, ok2 := intOf(span[1])
		return json.Number(fmt.Sprint(a)), json.Number(fmt.Sprint(b)), ok1 && ok2
	}
	text, _ := v.(string)
	m := spanSep.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	return json.Number(m[1]), json.Number(m[2]), true
}
