package projection

import (
	"fmt"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

// The whole-log projection as it was before Projector: every test checks Projector against it
// (reference_test.go's projectWhole), on every history the tests build and on logs grown an
// item at a time.

func projectWhole(in Input) []llm.Message {
	gap := in.IdleGap
	if gap == 0 {
		gap = DefaultIdleGap
	}
	keep := in.KeepOutputs
	if keep == 0 {
		keep = DefaultKeepOutputs
	}
	previewBytes := in.PreviewBytes
	if previewBytes <= 0 {
		previewBytes = DefaultPreviewBytes
	}

	b := lastBoundary(in.Items)
	view := inView(in.Items, b)
	out := make([]llm.Message, 0, len(view)+2)
	if b >= 0 {
		out = append(out, llm.Message{Role: llm.RoleUser, Content: in.Items[b].Boundary.Render()})
	}
	elideBefore := 0
	if gap > 0 {
		elideBefore = min(idleGapAt(view, in.Now, gap), keepFrom(view, keep))
	}
	for i, it := range view {
		m := it.Msg
		m.ToolCalls = m.ToolCalls[:len(m.ToolCalls):len(m.ToolCalls)]
		if m.Role == llm.RoleTool && i < elideBefore && len(m.Content) > previewBytes {
			// An output barely over the bound is kept whole: its preview would be no shorter.
			if p := preview(m.Content, previewBytes); len(p) < len(m.Content) {
				m.Content = p
			}
		}
		if m.Role == llm.RoleTool && i < elideBefore && len(m.Images) > 0 {
			// Old images cost as much as ever and matter less: the text says what they were.
			m.Content += fmt.Sprintf("\n[%d image(s) no longer shown; read the file again to see it]", len(m.Images))
			m.Images = nil
		}
		if in.Echo != nil {
			in.Echo.Apply(&m)
		}
		out = append(out, m)
	}
	if len(in.State) > 0 {
		out = append(out, llm.Message{Role: llm.RoleUser, Content: renderState(in.State)})
	}
	return out
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

// idleGapAt returns the index of the first item after the latest idle gap in items (len(items)
// when the gap is between the last item and now), or 0 when there is none. A zero time is
// unknown and makes no gap.
func idleGapAt(items []Item, now time.Time, gap time.Duration) int {
	if n := len(items); n > 0 && elapsed(items[n-1].Time, now) >= gap {
		return n
	}
	for i := len(items) - 1; i > 0; i-- {
		if elapsed(items[i-1].Time, items[i].Time) >= gap {
			return i
		}
	}
	return 0
}

// keepFrom returns the index of the keep-th last tool result in items: results from there on
// stay whole. With fewer results, all of them stay (0).
func keepFrom(items []Item, keep int) int {
	if keep <= 0 {
		return len(items)
	}
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Msg.Role == llm.RoleTool {
			if keep--; keep == 0 {
				return i
			}
		}
	}
	return 0
}
