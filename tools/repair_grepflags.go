package tools

import (
	"slices"
	"strings"
)

// Claude Code's Grep flags sent to a grep that lacks them: its definition declares -A, -B and
// -C (lines after, before and around each match), -i, -n and output_mode (content,
// files_with_matches or count), and models that learned it send them to any grep tool. They
// fold into our pattern and context as for Claude Code's own Grep (claudeGrep); -n and the
// output mode only shape what the search prints, which is read-only either way.

// grepFlagKeys are the keys that mark such a call.
var grepFlagKeys = []string{"-A", "-B", "-C", "-i", "-n", "output_mode", "output"}

// grepOutputModes are Claude Code's output_mode values, and "text", ripgrep's own printer
// (the one besides --json), which models that write rg's flags as keys send as output.
var grepOutputModes = []string{"content", "files_with_matches", "count", "text"}

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
			if !slices.Contains(grepOutputModes, v) {
				return nil // not Claude Code's output mode: leave it for validation to name
			}
			delete(args, k)
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
