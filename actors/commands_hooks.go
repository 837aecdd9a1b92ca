package actors

import (
	"fmt"
	"slices"
	"strings"
)

// hooksView is /hooks: every configured hook in the order they run, and the skipped ones with
// why (docs/CONFIG.md "[[hooks.EVENT]]").
func hooksView(snap commandSnapshot, _ string) string {
	if len(snap.Hooks) == 0 {
		return "no hooks configured: add [[hooks.EVENT]] tables (matcher, command, timeout_s) to troupe.toml or your user config, or hooks to .claude/settings.json"
	}
	var b strings.Builder
	var skipped []string
	for _, h := range snap.Hooks {
		matcher := h.Matcher
		if matcher == "" {
			matcher = "*"
		}
		kind := ""
		if h.Claude {
			kind = ", Claude Code names"
		}
		line := fmt.Sprintf("%-16s %-12s %s  (%ds, %s%s)", h.Event, matcher, h.Command, h.Timeout(), h.Source, kind)
		if h.Skipped != "" {
			line = "skipped: " + line
			if !slices.Contains(skipped, h.Skipped) {
				skipped = append(skipped, h.Skipped)
			}
		}
		b.WriteString(line + "\n")
	}
	for _, why := range skipped {
		b.WriteString("skipped because " + why + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
