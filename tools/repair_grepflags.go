package tools

import (
	"strings"
)

// Claude Code's Grep flags sent to a grep that lacks them: its definition declares -A, -B and
// -C (lines after, before and around each match), -i, -n and output_mode (content,
// files_with_matches or count), and models that learned it send them to any grep tool, with
// ripgrep's own spellings besides (output: text, file:line). They fold into our pattern and
// context as for Claude Code's own Grep (claudeGrep); -n and the output mode only shape what
// the search prints, which is read-only either way.

// grepFlagKeys are the keys that mark such a call.
var grepFlagKeys = []string{"-A", "-B", "-C", "-i", "-n", "output_mode", "output"}

// grepOutputMax bounds an output option's value: a mode's name ("content", "files_with_matches",
// ripgrep's "text", "file:line", or nothing at all, as an empty XML parameter sends it).
const grepOutputMax = 40

// grepFlags folds Claude Code's Grep flags into a grep schema (pattern and context, without
// those keys of its own).
func (s *argsSchema) grepFlags(args map[string]any) []Repair {
	if !s.closed || !s.has("pattern") || !s.has("context") {
		return nil
	}
	var found []string
	for _, k := range grepFlagKeys {
		if _, ok := args[k]; ok && !s.has(k) {
			found = append(found, k)
		}
	}
	if len(found) == 0 {
		return nil
	}
	for _, k := range []string{"output_mode", "output"} {
		if v, ok := args[k].(string); ok && !s.has(k) {
			if len(v) > grepOutputMax || strings.ContainsAny(v, "\n{}") {
				return nil // not an output mode: leave it for validation to name
			}
			delete(args, k) // how matches are printed: a read shows them either way
		}
	}
	if _, ok := args["context"]; ok {
		for _, k := range []string{"-A", "-B", "-C"} {
			delete(args, k) // the call's own context wins
		}
	}
	claudeGrep(args)
	delete(args, "-n")
	return []Repair{newRepair(RepairArgAlias, strings.Join(found, ", "), "pattern, context")}
}
