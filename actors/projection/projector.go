package projection

import (
	"fmt"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

// Projector is Project for a log that grows by appending, as a session's does: it keeps the
// view it built (the boundary rendered, the messages in view, where the latest idle gap and
// the tool results sit, the previews already cut) and takes in only the items appended since
// the last call. Building the view from the whole log before every model call was a quarter
// of a turn's CPU (issue 19). Its output is Project's for the same Input, always.
//
// A log that is not the one it saw grown (another slice, fewer items, a changed last item) or
// a new boundary rebuilds the view; so do other options. The zero value is ready; a Projector
// is owned by one goroutine, and the log's items it has seen must not change.
//
// Its answers are not copies: each is the conversation it keeps, appended to and never
// changed in place, capped at its length (only state blocks, or a changed elision, make a
// new array). Copying the whole context into every request was the largest piece of a
// turn's CPU once the view was kept (issue 19). So an earlier answer stays as it was while
// later ones grow, and no caller may modify one in place.
type Projector struct {
	base    *Item  // &items[0] of the log it saw
	seen    int    // how many of the log's items it took in
	lastSeq uint64 // the seq of items[seen-1], to notice a changed log
	gap     time.Duration
	preview int // the preview bound the elided forms were cut to
	echo    Echo
	echoing bool // echo applies (Input.Echo was set)

	boundary string // the last boundary, rendered ("" for none)
	to       uint64 // the last seq that boundary replaced
	hasB     bool
	assisted bool // an assistant message is in view: results after it are not orphans

	view    []llm.Message // the messages in view, verbatim, ToolCalls capped
	last    time.Time     // the time of the last item in view
	lastGap int           // the index in view of the first item after the latest idle gap (0: none)
	results []int         // the indexes in view of the tool results
	elided  []llm.Message // view[i] as shown before an idle gap, cut for i < len(elided)

	// shown is what the last answer showed when it is not view itself (a boundary, or outputs
	// elided): the boundary, elided[:shownCut], then view[shownCut:shownView].
	shown     []llm.Message
	shownCut  int
	shownView int
}

// Project returns Project(in), taking in only what was appended to in.Items since the last call.
func (p *Projector) Project(in Input) []llm.Message {
	gap, keep, previewBytes := in.IdleGap, in.KeepOutputs, in.PreviewBytes
	if gap == 0 {
		gap = DefaultIdleGap
	}
	if keep == 0 {
		keep = DefaultKeepOutputs
	}
	if previewBytes <= 0 {
		previewBytes = DefaultPreviewBytes
	}
	var echo Echo
	if in.Echo != nil {
		echo = *in.Echo
	}
	p.catchUp(in.Items, gap, previewBytes, echo, in.Echo != nil)

	elideBefore := 0
	if gap > 0 {
		at := p.lastGap
		if n := len(p.view); n > 0 && elapsed(p.last, in.Now) >= gap {
			at = n
		}
		elideBefore = min(at, p.keepFrom(keep))
	}
	p.cut(elideBefore)
	out := p.conversation(elideBefore)
	if len(in.State) > 0 { // beyond out's capacity: a new array, the kept one unchanged
		out = append(out, llm.Message{Role: llm.RoleUser, Content: renderState(in.State)})
	}
	return out
}

// conversation is the view as shown with its first elideBefore messages elided, capped at its
// length. Without a boundary or elision that is the view itself; otherwise shown, extended
// while the elision stays where it was and made anew when it moves.
func (p *Projector) conversation(elideBefore int) []llm.Message {
	if !p.hasB && elideBefore == 0 {
		p.shown = nil
		if p.view == nil {
			return []llm.Message{} // empty, as Project's
		}
		return p.view[:len(p.view):len(p.view)]
	}
	if p.shown == nil || elideBefore != p.shownCut {
		p.shown = make([]llm.Message, 0, len(p.view)+1)
		if p.hasB {
			p.shown = append(p.shown, llm.Message{Role: llm.RoleUser, Content: p.boundary})
		}
		p.shown = append(p.shown, p.elided[:elideBefore]...)
		p.shownCut, p.shownView = elideBefore, elideBefore
	}
	p.shown = append(p.shown, p.view[p.shownView:]...)
	p.shownView = len(p.view)
	return p.shown[:len(p.shown):len(p.shown)]
}

// catchUp brings the view up to items: it takes in the items appended since the last call, or
// rebuilds the view when items is not that log grown, holds a new boundary, or the options
// the view depends on changed.
func (p *Projector) catchUp(items []Item, gap time.Duration, previewBytes int, echo Echo, echoing bool) {
	grown := len(items) > 0 && &items[0] == p.base && len(items) >= p.seen && p.seen > 0 &&
		items[p.seen-1].Seq == p.lastSeq && gap == p.gap && previewBytes == p.preview &&
		echo == p.echo && echoing == p.echoing
	if grown {
		for _, it := range items[p.seen:] {
			if it.Boundary != nil {
				grown = false
				break
			}
		}
	}
	if !grown {
		p.rebuild(items, gap, previewBytes, echo, echoing)
		return
	}
	for _, it := range items[p.seen:] {
		p.take(it)
	}
	p.seen = len(items)
	p.lastSeq = items[p.seen-1].Seq
}

// rebuild builds the view of items from nothing, in a new array: earlier answers keep theirs.
func (p *Projector) rebuild(items []Item, gap time.Duration, previewBytes int, echo Echo, echoing bool) {
	*p = Projector{gap: gap, preview: previewBytes, echo: echo, echoing: echoing, seen: len(items), results: p.results[:0]}
	if len(items) == 0 {
		return
	}
	p.base, p.lastSeq = &items[0], items[len(items)-1].Seq
	b := lastBoundary(items)
	if b >= 0 {
		p.boundary, p.to, p.hasB = items[b].Boundary.Render(), items[b].Boundary.ToSeq, true
	}
	for _, it := range items[firstVisible(items, b):] {
		p.take(it)
	}
}

// take adds one item to the view, as inView and Project would: boundaries and what the last
// boundary replaced stay out, and so do results before the first assistant message in view
// (their call was replaced).
func (p *Projector) take(it Item) {
	if it.Boundary != nil || (p.hasB && it.Seq <= p.to) {
		return
	}
	switch it.Msg.Role {
	case llm.RoleAssistant:
		p.assisted = true
	case llm.RoleTool:
		if !p.assisted {
			return
		}
		p.results = append(p.results, len(p.view))
	}
	if n := len(p.view); n > 0 && elapsed(p.last, it.Time) >= p.gap {
		p.lastGap = n
	}
	m := it.Msg
	m.ToolCalls = m.ToolCalls[:len(m.ToolCalls):len(m.ToolCalls)]
	if p.echoing {
		p.echo.Apply(&m)
	}
	p.view = append(p.view, m)
	p.last = it.Time
}

// keepFrom is keepFrom of the view: the index of the keep-th last tool result in view, 0 with
// fewer, len(view) for keep < 0.
func (p *Projector) keepFrom(keep int) int {
	switch {
	case keep <= 0:
		return len(p.view)
	case len(p.results) < keep:
		return 0
	}
	return p.results[len(p.results)-keep]
}

// cut makes sure the elided forms of view[:n] are cut: after an idle gap an older tool output
// longer than the preview bound becomes its preview, and its images a line saying they are no
// longer shown. An item's elided form never changes, so each is cut once.
func (p *Projector) cut(n int) {
	for i := len(p.elided); i < n; i++ {
		m := p.view[i]
		if m.Role == llm.RoleTool && len(m.Content) > p.preview {
			// An output barely over the bound is kept whole: its preview would be no shorter.
			if s := preview(m.Content, p.preview); len(s) < len(m.Content) {
				m.Content = s
			}
		}
		if m.Role == llm.RoleTool && len(m.Images) > 0 {
			// Old images cost as much as ever and matter less: the text says what they were.
			m.Content += fmt.Sprintf("\n[%d image(s) no longer shown; read the file again to see it]", len(m.Images))
			m.Images = nil
		}
		p.elided = append(p.elided, m)
	}
}
