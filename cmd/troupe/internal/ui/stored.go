package ui

import (
	"fmt"
	"io"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// AttachState is what attach says of a session: running, cut off or finished.
func AttachState(status string, running bool) string {
	switch {
	case running:
		return "running (Ctrl-C detaches; the session goes on)"
	case status == string(messages.StatusRunning):
		return "cut off"
	}
	return "finished: " + status
}

// StoredOutcome is how a session that is no longer running ended, from its stored meta, as
// its session.finished would have said it; a done session gets its line on w.
func StoredOutcome(w io.Writer, meta *messages.SessionInfo) *messages.SessionFinishedData {
	fin := &messages.SessionFinishedData{Status: messages.SessionStatus(meta.Status), Turns: meta.Turns}
	switch messages.SessionStatus(meta.Status) {
	case messages.StatusDone:
		fmt.Fprintf(w, "troupe: session %s finished: done after %s\n", meta.ID, textfmt.Count(meta.Turns, "turn"))
	case messages.StatusFailed:
		fin.Error = fmt.Sprintf("after %s (troupe log %s shows why)", textfmt.Count(meta.Turns, "turn"), meta.ID)
	case messages.StatusRunning:
		fin.Status = messages.StatusInterrupted
		fin.Error = fmt.Sprintf("its node stopped without recording an outcome; troupe resume %s continues it", meta.ID)
	default: // interrupted, cancelled
		fin.Status = messages.StatusInterrupted
		fin.Error = fmt.Sprintf("%s after %s; troupe resume %s continues it", meta.Status, textfmt.Count(meta.Turns, "turn"), meta.ID)
	}
	return fin
}
