package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Options other tools declare that ours lack, sent to ours. Each is read for what it means
// here, and only where the schema makes that certain (a command, a file reader with offset and
// limit, an edit with old_string, a listing with depth, a search with a glob); anything else
// is left for validation to name.
//   - what is already so here: write_file overwrites and creates parent directories
//     (overwrite, create_dirs true), files are read and written as UTF-8 (encoding utf-8), a
//     search descends (recursive true), an edit replaces one match (count 1);
//   - a shell's extras: args appended to the command (MCP shell servers' command + args),
//     timeout_ms (Desktop Commander, Codex) as seconds, a login shell's name, env as exports;
//   - a listing's recursive (true: the whole tree, false: the top level) and hidden-file
//     switches (list_dir shows dotfiles either way);
//   - a search's file types (type, file_types, extensions) as its glob.

// alreadySo are option keys (normalized) and the values that ask for what our tools do anyway.
var alreadySo = map[string][]any{
	"overwrite": {true}, "createdirs": {true}, "createdirectories": {true}, "createparents": {true},
	"mkdir": {true}, "parents": {true}, "encoding": {"utf-8", "utf8", "UTF-8", "UTF8"},
	"count": {1}, "expectedreplacements": {1}, "occurrences": {1}, "maxreplacements": {1},
	"showhidden": {true, false}, "includehidden": {true, false}, "all": {true, false},
	"mode": {"overwrite", "write", "w"}, "includedirs": {true, false}, // Kimi CLI's WriteFile, Glob
}

// alreadySoFor says which schemas an option belongs to: the argument the schema must declare.
var alreadySoFor = map[string]string{
	"overwrite": "content", "createdirs": "content", "createdirectories": "content",
	"createparents": "content", "mkdir": "content", "parents": "content", "encoding": "path",
	"count": "old_string", "expectedreplacements": "old_string", "occurrences": "old_string",
	"maxreplacements": "old_string", "showhidden": "depth", "includehidden": "depth", "all": "depth",
	"mode": "content", "includedirs": "pattern",
}

// options applies the rules above to a closed schema.
func (s *argsSchema) options(args map[string]any) []Repair {
	if !s.closed {
		return nil
	}
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		norm := normalizedName(key)
		if s.has(key) {
			continue
		}
		if owner, ok := alreadySoFor[norm]; ok && s.has(owner) && slices.ContainsFunc(alreadySo[norm], func(want any) bool { return sameOption(args[key], want) }) {
			repairs = append(repairs, newRepair(RepairDroppedNote, fmt.Sprintf("%s: %v (already so)", key, args[key]), ""))
			delete(args, key)
		}
	}
	repairs = append(repairs, s.recursive(args)...)
	repairs = append(repairs, s.shellExtras(args)...)
	repairs = append(repairs, s.fileTypes(args)...)
	return repairs
}

// sameOption compares an option's value with what it must be, numbers and booleans also as text.
func sameOption(v, want any) bool {
	switch w := want.(type) {
	case bool:
		b, ok := boolOf(v)
		return ok && b == w
	case int:
		n, ok := intOf(v)
		return ok && n == int64(w)
	case string:
		s, ok := v.(string)
		return ok && strings.EqualFold(strings.TrimSpace(s), w)
	}
	return false
}

// recursive reads a recursive switch: on a listing, the tree (true) or its top level (false);
// on a search, which always descends, true says nothing.
func (s *argsSchema) recursive(args map[string]any) []Repair {
	key := ""
	for k := range args {
		if normalizedName(k) == "recursive" && !s.has(k) {
			key = k
		}
	}
	on, ok := boolOf(args[key])
	if key == "" || !ok {
		return nil
	}
	switch {
	case s.has("depth") && args["depth"] == nil:
		depth := 1
		if on {
			depth = listMaxDepth
		}
		args["depth"] = json.Number(fmt.Sprint(depth))
	case s.has("depth"):
	case on && s.has("pattern") && !s.has("context"):
		// a glob asked to descend: a pattern without a directory matches at any depth
		if p, ok := args["pattern"].(string); ok && !strings.Contains(p, "/") && !strings.HasPrefix(p, "**") {
			args["pattern"] = "**/" + p
		}
	case on && s.has("pattern"):
	default:
		return nil
	}
	delete(args, key)
	return []Repair{newRepair(RepairArgAlias, fmt.Sprintf("%s: %v", key, on), "")}
}

// envName is a shell variable name.
var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// shellExtras folds a command's args list, timeout_ms, shell name and env into the command.
func (s *argsSchema) shellExtras(args map[string]any) []Repair {
	cmd, ok := args["command"].(string)
	if !ok || !s.has("command") {
		return nil
	}
	var repairs []Repair
	if list, ok := args["args"].([]any); ok && !s.has("args") {
		words := []string{cmd}
		for _, w := range list {
			word, isText := w.(string)
			if !isText {
				return nil
			}
			words = append(words, shellQuote(word))
		}
		delete(args, "args")
		cmd = strings.Join(words, " ")
		repairs = append(repairs, newRepair(RepairShellForm, "args: […]", "command: "+preview(cmd)))
	}
	for _, key := range slices.Sorted(maps.Keys(args)) {
		if s.has(key) {
			continue
		}
		switch normalizedName(key) {
		case "timeoutms", "timeoutmillis", "timeoutmilliseconds":
			ms, isInt := intOf(args[key])
			if !isInt || ms <= 0 || !s.has("timeout_s") || args["timeout_s"] != nil {
				continue
			}
			args["timeout_s"] = json.Number(fmt.Sprint(int64(math.Ceil(float64(ms) / 1000))))
		case "shell":
			name, _ := args[key].(string)
			switch strings.TrimPrefix(strings.TrimPrefix(name, "/usr"), "/bin/") {
			case "bash", "sh", "zsh", "":
			default:
				continue
			}
		case "env":
			env := objectOf(args[key])
			if env == nil {
				continue
			}
			exports, ok := envExports(env)
			if !ok {
				continue
			}
			if len(exports) > 0 {
				cmd = "export " + strings.Join(exports, " ") + "; " + cmd
			}
		default:
			continue
		}
		repairs = append(repairs, newRepair(RepairShellForm, fmt.Sprintf("%s: %v", key, args[key]), "command: "+preview(cmd)))
		delete(args, key)
	}
	args["command"] = cmd
	return repairs
}

// envExports are env's variables as shell assignments; ok is false unless every name is a
// shell variable's and every value text.
func envExports(env map[string]any) ([]string, bool) {
	var exports []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		v, isText := env[k].(string)
		if !isText || !envName.MatchString(k) {
			return nil, false
		}
		exports = append(exports, k+"="+shellQuote(v))
	}
	return exports, true
}

// fileTypes reads a search's file types (extensions, as ripgrep's type names mostly are) as
// its glob: one type *.go, several *.{go,ts}.
func (s *argsSchema) fileTypes(args map[string]any) []Repair {
	if !s.has("glob") || !s.has("pattern") || args["glob"] != nil {
		return nil
	}
	for _, key := range slices.Sorted(maps.Keys(args)) {
		switch normalizedName(key) {
		case "type", "types", "filetype", "filetypes", "extension", "extensions", "fileextensions":
		default:
			continue
		}
		if s.has(key) {
			continue
		}
		var exts []string
		values, isList := listArg(args[key])
		if !isList {
			values = []any{args[key]}
		}
		for _, v := range values {
			e, _ := v.(string)
			e = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(e), "*"), ".")
			if !fileType.MatchString(e) {
				return nil
			}
			exts = append(exts, e)
		}
		glob := "*." + exts[0] // without a /, the glob matches file names at any depth (grep.go)
		if len(exts) > 1 {
			glob = "*.{" + strings.Join(exts, ",") + "}"
		}
		args["glob"] = glob
		delete(args, key)
		return []Repair{newRepair(RepairArgAlias, key, "glob: "+glob)}
	}
	return nil
}
