package store

// InterruptedText is the output of a synthetic result standing in for a call that never
// returned: the model must learn the call may or may not have taken effect.
const InterruptedText = "interrupted: the call was cut off before it returned (the process stopped); " +
	"its effects, if any, are unknown — check before repeating it"

// Heal makes a loaded log safe to replay to a model, which requires every tool call to be
// answered by exactly one result right after the assistant turn that made it:
//
//   - each assistant entry is followed by the results of its calls, in call order;
//   - a call with no result gets a synthetic error result (InterruptedText);
//   - results answering no call (orphans) and second results for a call (duplicates) are
//     dropped from the view;
//   - other entries that arrived while an assistant's calls were running (a user message, a
//     system note) follow that assistant's results, in their original order.
//
// A result answers the most recent assistant entry before it that made a call with its CallID
// still unanswered, so providers that reuse call IDs across turns ("call_0") pair correctly.
//
// Heal is pure: it does not modify entries. It returns the healed view and the synthetic
// entries it created (Seq and Time unset), which the caller should Append so the log itself is
// healed. Healing the view again, or healing the log with the synthetic entries appended,
// yields the same view and no new synthetic entries.
func Heal(entries []*Entry) (view []*Entry, synthetic []*Entry) {
	type pending struct{ block, call int }
	type block struct {
		head    *Entry   // the assistant entry; nil for entries before the first one
		results []*Entry // indexed like head.Calls
		rest    []*Entry // non-result entries that followed head
	}
	blocks := []*block{{}}
	open := make(map[string][]pending) // call ID → unanswered calls, most recent last

	for _, e := range entries {
		switch e.Kind {
		case KindAssistant:
			b := &block{head: e, results: make([]*Entry, len(e.Calls))}
			blocks = append(blocks, b)
			// Push in reverse so that, within one entry, the earliest call pops first.
			for i := len(e.Calls) - 1; i >= 0; i-- {
				id := e.Calls[i].ID
				open[id] = append(open[id], pending{len(blocks) - 1, i})
			}
		case KindToolResult:
			stack := open[e.CallID]
			if len(stack) == 0 {
				continue // orphan or duplicate
			}
			p := stack[len(stack)-1]
			open[e.CallID] = stack[:len(stack)-1]
			blocks[p.block].results[p.call] = e
		default:
			last := blocks[len(blocks)-1]
			last.rest = append(last.rest, e)
		}
	}

	// Synthetic results are listed newest assistant first, each in call order: the order in
	// which healing the log with them appended pops them back onto the same calls.
	for bi := len(blocks) - 1; bi >= 1; bi-- {
		b := blocks[bi]
		for ci, r := range b.results {
			if r != nil {
				continue
			}
			c := b.head.Calls[ci]
			s := &Entry{Kind: KindToolResult, CallID: c.ID, ToolName: c.Name, IsError: true, Text: InterruptedText}
			b.results[ci] = s
			synthetic = append(synthetic, s)
		}
	}

	view = make([]*Entry, 0, len(entries)+len(synthetic))
	for _, b := range blocks {
		if b.head != nil {
			view = append(view, b.head)
			view = append(view, b.results...)
		}
		view = append(view, b.rest...)
	}
	return view, synthetic
}
