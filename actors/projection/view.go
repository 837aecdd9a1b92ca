package projection

import "github.com/troupe-dev/troupe/llm"

// What the model sees of a log is the last boundary and the items after the range it replaced.
// Only the last boundary counts: each collapse folds the boundary before it into its own
// summary (SelectSpan puts it in the span), so earlier ones are replaced like any other entry.

// lastBoundary returns the index of the last boundary in items, or -1.
func lastBoundary(items []Item) int {
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Boundary != nil {
			return i
		}
	}
	return -1
}

// firstVisible returns the index of the first item the last boundary (at b; -1 for none) left
// in view. Seqs grow along the log, so everything from there on is either in view, the
// boundary itself, or an older boundary.
func firstVisible(items []Item, b int) int {
	if b < 0 {
		return 0
	}
	to := items[b].Boundary.ToSeq
	for i, it := range items {
		if i == b || (it.Boundary == nil && it.Seq > to) {
			return i
		}
	}
	return b
}

// inView returns the messages of the items the last boundary (at b) did not replace, in log
// order, without boundaries. Results whose call was replaced are dropped too: a boundary that
// was not cut with SafeCut would otherwise open the view with orphans. In a valid log those
// are exactly the results before the first assistant message in view.
func inView(items []Item, b int) []Item {
	var to uint64
	if b >= 0 {
		to = items[b].Boundary.ToSeq
	}
	out := make([]Item, 0, len(items)-firstVisible(items, b))
	sawAssistant := false
	for _, it := range items[firstVisible(items, b):] {
		if it.Boundary != nil || (b >= 0 && it.Seq <= to) {
			continue
		}
		switch it.Msg.Role {
		case llm.RoleAssistant:
			sawAssistant = true
		case llm.RoleTool:
			if !sawAssistant {
				continue
			}
		}
		out = append(out, it)
	}
	return out
}
