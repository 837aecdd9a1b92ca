package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// One call that stands for several (issue 20): other harnesses' tools take lists where ours
// take one item. A read of several files (paths: [...], the MCP filesystem server's
// read_multiple_files, Gemini CLI's read_many_files), several commands (commands: [{command}]),
// several edits (edits: [...], or the same list as a JSON string: Claude Code's MultiEdit, the
// MCP filesystem server's edit_file), a patch of several hunks or files (Codex's apply_patch),
// a diff of several SEARCH/REPLACE blocks (Cline's replace_in_file, Roo's apply_diff). Split
// turns such a call into our calls, in order; the session runs them in that order.
//
// All or none at reading: when any element cannot be mapped the call is not split (and the
// mapping refuses it whole, saying why), so no prefix of an edit list runs alone by our choice.

// Piece is one of the calls a split call stands for: one of our tools and its arguments.
type Piece struct {
	Name string
	Args string
}

// splitRepairMax bounds the broken argument text Split repairs before reading it; longer
// broken arguments are left to the usual mapping, which says what is wrong.
const splitRepairMax = 64 << 10

// maxPieces bounds how many calls one call may stand for.
const maxPieces = 64

// Split returns the calls that a call to name with raw arguments stands for, when it is
// list-shaped; ok is false for every other call (it then goes through the usual mapping).
func (r *Registry) Split(name, raw string) (pieces []Piece, ok bool) {
	if piece, ok := r.nestedCall(name, raw); ok {
		return []Piece{piece}, true
	}
	if pieces, ok := r.concatenatedCalls(name, raw); ok {
		return pieces, true
	}
	if pieces, ok := r.toolCodePieces(name, raw); ok {
		return pieces, true
	}
	key, target := r.splitTool(name)
	pieceMaps := splitterOf(key, target)
	if pieceMaps == nil {
		return nil, false // not read: most calls are to tools that never split (issue 19)
	}
	var args map[string]any
	if text, isText := harnessTools[key].textArgs(raw); isText {
		args = text
	} else if !json.Valid([]byte(raw)) && len(raw) > splitRepairMax {
		return nil, false // the repair library's time grows with the square of broken input
	} else if parsed, _, err := parseArgs(raw); err != nil || decodeNumbers(string(parsed), &args) != nil {
		return nil, false
	}
	maps, ok := pieceMaps(args)
	if !ok || len(maps) == 0 || len(maps) > maxPieces {
		return nil, false
	}
	for _, m := range maps {
		to, _ := m[pieceTool].(string)
		delete(m, pieceTool)
		if to == "" {
			to = target
		}
		if _, have := r.byName[to]; !have {
			return nil, false
		}
		out, err := json.Marshal(m)
		if err != nil {
			return nil, false
		}
		pieces = append(pieces, Piece{Name: to, Args: string(out)})
	}
	return pieces, true
}

// splitterOf is how Split cuts the arguments of a call to key (and target) into pieces; nil
// when calls of that tool never split, so their arguments need not be read at all.
func splitterOf(key, target string) func(args map[string]any) ([]map[string]any, bool) {
	switch {
	case key == "":
		return nil
	case key == "FileWriteOrEdit":
		return wcgwBlocks
	case key == "ReadFiles":
		return func(args map[string]any) ([]map[string]any, bool) { return listPieces(args, "file_paths", "path") }
	case key == "apply_patch":
		return patchPieces
	case key == "StrReplaceFile":
		return func(args map[string]any) ([]map[string]any, bool) { return listPieces(args, "edit", "") }
	case key == "search_replace":
		return func(args map[string]any) ([]map[string]any, bool) {
			args["diff"] = args["content"]
			delete(args, "content")
			return blockPieces(args)
		}
	case target == "bash" || key == "bash":
		return func(args map[string]any) ([]map[string]any, bool) { return listPieces(args, "commands", "command") }
	case target == "grep" || key == "grep" || target == "list_dir" || key == "list_dir":
		// a search or listing of several paths
		return func(args map[string]any) ([]map[string]any, bool) { return listPieces(args, "paths", "path") }
	case target == "read_file" || key == "read_file":
		return readPieces
	case target == "edit_file" || key == "edit_file":
		return func(args map[string]any) ([]map[string]any, bool) {
			if maps, ok := blockPieces(args); ok {
				return maps, true
			}
			return editPieces(args)
		}
	}
	return nil
}

// pieceTool is the key under which a piece names its tool, when it is not the split tool's
// target (a patch adds one file and changes another).
const pieceTool = "\x00tool"

// splitTool finds the tool a name means for splitting: our tool's name (key and target
// alike), or another harness's tool and its target. key is "" when the name is neither.
func (r *Registry) splitTool(name string) (key, target string) {
	if strings.HasPrefix(name, "mcp__") {
		return "", "" // another server's tool, never ours
	}
	bare := name
	for _, p := range namespacePrefixes {
		bare = strings.TrimPrefix(bare, p)
	}
	if tool, ok := r.namespacedTool(bare); ok {
		bare = tool
	}
	if _, ok := r.byName[bare]; ok {
		return bare, bare
	}
	if h, ok := harnessTools[bare]; ok {
		return bare, h.target
	}
	if k, ok := harnessByNormalized[normalizedName(bare)]; ok {
		return k, harnessTools[k].target
	}
	if tool := r.meaningOf(bare); tool != "" {
		return tool, tool // run_commands: its words mean bash, whose list splits like bash's
	}
	return "", ""
}

// listPieces splits args[listKey], a list of strings or of objects holding itemKey, into one
// call per element with the other arguments kept ("" itemKey: objects only, any keys).
func listPieces(args map[string]any, listKey, itemKey string) ([]map[string]any, bool) {
	list, ok := listArg(args[listKey])
	if !ok {
		return nil, false
	}
	var out []map[string]any
	for _, el := range list {
		m := map[string]any{}
		for k, v := range args {
			if k != listKey {
				m[k] = v
			}
		}
		if s, ok := el.(string); ok && strings.HasPrefix(strings.TrimSpace(s), "{") {
			if obj := objectOf(s); obj != nil {
				el = obj // an element sent as a JSON string (earendil-works/pi#8962)
			}
		}
		switch v := el.(type) {
		case string:
			if itemKey == "" {
				return nil, false
			}
			m[itemKey] = v
		case map[string]any:
			for k, x := range v {
				m[k] = x
			}
		default:
			return nil, false
		}
		if _, has := m[itemKey]; itemKey != "" && !has {
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}

// listArg reads a non-empty list, or a JSON string holding one.
func listArg(v any) ([]any, bool) {
	if s, ok := v.(string); ok && strings.HasPrefix(strings.TrimSpace(s), "[") {
		var list []any
		if decodeNumbers(s, &list) != nil {
			return nil, false
		}
		v = list
	}
	list, ok := v.([]any)
	return list, ok && len(list) > 0
}

// editPieces splits an edit list: each element's old and new text with the call's path.
func editPieces(args map[string]any) ([]map[string]any, bool) {
	list, ok := listArg(args["edits"])
	if !ok {
		return nil, false
	}
	if len(list) == 0 {
		return nil, false
	}
	delete(args, "dryRun") // the MCP filesystem server's preview switch: an edit here is shown as a diff
	return listPieces(args, "edits", "")
}

// patchPieces splits a patch of several file operations or hunks into one call each.
func patchPieces(args map[string]any) ([]map[string]any, bool) {
	text, _ := args["input"].(string)
	if text == "" {
		text, _ = args["patch"].(string)
	}
	ops, problem := parsePatch(text)
	if problem != "" || len(ops) == 0 || len(ops) == 1 && len(ops[0].hunks) <= 1 {
		return nil, false
	}
	var out []map[string]any
	for _, op := range ops {
		switch {
		case op.kind == "Add":
			out = append(out, map[string]any{pieceTool: "write_file", "path": op.path, "content": op.content})
		case op.kind == "Update" && op.moveTo == "":
			for i, h := range op.hunks {
				oldText, newText, refusal := h.edit(i + 1)
				if refusal != "" {
					return nil, false
				}
				out = append(out, map[string]any{pieceTool: "edit_file", "path": op.path, "old_string": oldText, "new_string": newText})
			}
		default:
			return nil, false // a delete or a rename: the mapping refuses the patch, saying how
		}
	}
	return out, true
}

// nestedCall reads a whole call nested in an action payload (aliases_action.go), whatever the
// outer tool is called, and resolves it: the call that runs is the inner one. It reads valid
// JSON only: a framework's outer call is well formed even when the model's inner one is not.
func (r *Registry) nestedCall(name, raw string) (Piece, bool) {
	if strings.HasPrefix(name, "mcp__") || !strings.Contains(raw, "action") {
		return Piece{}, false
	}
	var args map[string]any
	if decodeNumbers(raw, &args) != nil {
		return Piece{}, false
	}
	inner, innerArgs, ok := actionCall(args)
	if !ok {
		return Piece{}, false
	}
	if strings.Contains(innerArgs, "action") { // one level: a payload in a payload is not read
		return Piece{}, false
	}
	if pieces, ok := r.Split(inner, innerArgs); ok && len(pieces) == 1 {
		return pieces[0], true
	}
	canonical, translated, ok := r.Resolve(inner, innerArgs)
	if !ok {
		return Piece{}, false
	}
	return Piece{Name: canonical, Args: translated}, true
}

// readPieces splits a read of several files: paths (strings or objects), Roo Code's native
// files: [{path, …}], or its XML form's args: {file: [{path}]} in any of the nestings a
// conversion of that XML gives (fileEntries).
func readPieces(args map[string]any) ([]map[string]any, bool) {
	if v, has := args["args"]; has && len(args) == 1 {
		entries, ok := fileEntries(v, 0)
		if !ok {
			return nil, false
		}
		args = map[string]any{"files": entries}
	}
	for _, key := range []string{"paths", "files", "file"} {
		if v, has := args[key]; has {
			if key != "paths" {
				if entries, ok := fileEntries(v, 0); ok {
					args[key] = entries
				}
			}
			pieces, ok := listPieces(args, key, "path")
			for _, p := range pieces {
				ok = ok && lineRange(p)
			}
			return pieces, ok
		}
	}
	if list, ok := args["path"].([]any); ok && len(list) > 1 {
		return listPieces(args, "path", "path") // several paths under the one-path name
	}
	return nil, false
}

// maxEntryNesting bounds the layers of file: {…} and lists fileEntries looks through.
const maxEntryNesting = 4

// fileEntries flattens Roo Code's read_file entries as its XML (<args><file><path>…) comes
// through a JSON conversion: one entry or a list of them, each {path, …} or {file: entries},
// also as a JSON string (args: [{file: {path}}], gpt-oss in Roo-Code#6739; args: {file: {path}}
// for one file; args: {file: [{path}, …]}).
func fileEntries(v any, depth int) ([]any, bool) {
	if depth > maxEntryNesting {
		return nil, false
	}
	if s, ok := v.(string); ok {
		if t := strings.TrimSpace(s); !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
			return []any{s}, depth > 0 // a path in a list; alone, the one-file call it is
		}
		var decoded any
		if decodeNumbers(s, &decoded) != nil {
			return nil, false
		}
		v = decoded
	}
	switch x := v.(type) {
	case []any:
		var out []any
		for _, el := range x {
			more, ok := fileEntries(el, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, more...)
		}
		return out, len(out) > 0
	case map[string]any:
		if inner, ok := x["file"]; ok && len(x) == 1 {
			return fileEntries(inner, depth+1)
		}
		if _, ok := x["path"]; ok {
			return []any{x}, true
		}
	}
	return nil, false
}

// lineRange turns a Roo Code file entry's line_ranges of one "first-last" range into offset
// and limit; false when it holds several ranges (no one read_file reads them) or is unreadable.
func lineRange(piece map[string]any) bool {
	v, has := piece["line_ranges"]
	if !has {
		return true
	}
	delete(piece, "line_ranges")
	var text string
	switch x := v.(type) {
	case nil:
		return true
	case string:
		text = x
	case []any:
		if len(x) == 0 {
			return true
		}
		if len(x) > 1 {
			return false
		}
		text, _ = x[0].(string)
	}
	from, to, cut := strings.Cut(text, "-")
	first, ok1 := intOf(from)
	last, ok2 := intOf(to)
	if !cut || !ok1 || !ok2 || first < 1 || last < first {
		return false
	}
	piece["offset"] = json.Number(fmt.Sprint(first))
	piece["limit"] = json.Number(fmt.Sprint(last - first + 1))
	return true
}
