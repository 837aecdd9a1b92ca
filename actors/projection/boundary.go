package projection

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/store"
)

// Boundary is a compact boundary: the record that the log entries FromSeq..ToSeq were replaced,
// in the model-visible context, by a summary. It is stored as the Data of a store.KindCompact
// entry appended after the range; the entries themselves stay in the log, so a user (or
// resume) can always see what was collapsed.
type Boundary struct {
	FromSeq      uint64   `json:"from_seq"`
	ToSeq        uint64   `json:"to_seq"`
	Summary      string   `json:"summary"`
	FilesTouched []string `json:"files_touched,omitempty"`
	KeyResults   []string `json:"key_results,omitempty"`
	OpenIssues   []string `json:"open_issues,omitempty"`
	// Mechanical is set when the harness wrote the summary without a model (Mechanical).
	Mechanical bool `json:"mechanical,omitempty"`
	// Reason says why the span was collapsed ("auto-compact at 61% of the window", "/compact").
	Reason string `json:"reason,omitempty"`
}

// Render bounds: a stored boundary is data from disk, so Render caps it whatever wrote it. A
// model summary is held to its token budget by ParseSummary and a mechanical one to ~4 KB.
const (
	renderSummaryBytes = 8 << 10
	renderListItems    = 30
	renderItemBytes    = 300
)

// Render is the boundary as the model reads it: an explicit, marked block that says which
// entries it replaced and that the harness wrote it, so the model never takes the summary for
// something the user said. It is bounded whatever the boundary holds.
func (b Boundary) Render() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "[troupe compact boundary] Entries %d–%d of this session were replaced by this summary.\n", b.FromSeq, b.ToSeq)
	sb.WriteString("The harness wrote this block; it is not a message from the user. The replaced entries stay in the session log.\n")
	if b.Mechanical {
		sb.WriteString("It was built from the entries alone, without a model, so it lists facts rather than explaining them.\n")
	}
	sb.WriteString("\nSummary:\n")
	if s := strings.TrimSpace(b.Summary); s != "" {
		sb.WriteString(clip(s, renderSummaryBytes))
	} else {
		sb.WriteString("(none)")
	}
	sb.WriteByte('\n')
	renderList(&sb, "Files touched", b.FilesTouched)
	renderList(&sb, "Key results", b.KeyResults)
	renderList(&sb, "Open issues", b.OpenIssues)
	sb.WriteString("[end of compact boundary]")
	return sb.String()
}

func renderList(sb *strings.Builder, title string, list []string) {
	sb.WriteString("\n" + title + ":\n")
	if len(list) == 0 {
		sb.WriteString("- none\n")
		return
	}
	for _, s := range boundList(list, renderListItems, renderItemBytes) {
		sb.WriteString("- " + oneLine(s) + "\n")
	}
}

// oneLine folds the line breaks of a list item, which would otherwise break the list apart.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Entry returns the compact log entry that records b; the caller appends it (after the range it
// replaces, which is what FromEntries checks).
func (b Boundary) Entry() (*store.Entry, error) {
	data, err := json.Marshal(b)
	if err != nil {
		return nil, fmt.Errorf("encode compact boundary %d–%d: %w", b.FromSeq, b.ToSeq, err)
	}
	return &store.Entry{Kind: store.KindCompact, Text: b.Summary, Data: data}, nil
}
