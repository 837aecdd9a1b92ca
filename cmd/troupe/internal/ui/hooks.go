package ui

import (
	"fmt"

	"github.com/troupe-dev/troupe/messages"
)

// hookLine is what the user is shown of a hook's run: nothing when it let things go on quietly,
// else its event, command, decision and reason or error, on one line.
func hookLine(d *messages.HookFinishedData) string {
	what := d.Event
	if d.Tool != "" {
		what += " " + d.Tool
	}
	switch d.Decision {
	case "continue", "context", "allow":
		if d.Notice == "" {
			return ""
		}
		return fmt.Sprintf("hook %s: %s", what, firstLineOf(d.Notice))
	case "error":
		return fmt.Sprintf("hook error (%s): %s", what, firstLineOf(d.Notice))
	}
	line := fmt.Sprintf("hook %s %s: %s", what, d.Decision, firstLineOf(d.Reason))
	if d.Notice != "" {
		line += " (" + firstLineOf(d.Notice) + ")"
	}
	return line
}
