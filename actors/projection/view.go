package projection

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
