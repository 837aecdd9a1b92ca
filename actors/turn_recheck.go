package actors

import (
	"slices"

	"github.com/troupe-dev/troupe/messages"
)

// recheckAhead is the file recheck a session asks for with a batch of calls, for the model call
// that follows it. The executor answers a RecheckFiles once every call before it has run
// (toolexec.go), so the answer follows the batch's last result instead of costing the next
// model call a round trip of its own (docs/ARCHITECTURE.md, "How a turn flows").
//
// The answer is used as it is only by the call the batch's last result starts at once
// (closing). A call that comes later (after subagents, a cancel, a compaction) asks again, and
// the earlier answer's changes go with the new one: the executor reports each change once, so
// no answer is ever dropped, whatever phase it arrives in.
type recheckAhead struct {
	turn    int                      // the call it was asked for; 0: none in flight
	answer  *messages.FilesRechecked // arrived before its call asked for it
	stale   bool                     // its call came later: its answer is held and the call asks again
	closing bool                     // the batch's last result is being handled
	held    []messages.FileChange    // changes of answers not delivered yet: they go with the next
}

// ask records a recheck asked for the call of turn next (the one after the batch's), and
// returns the request to send after the batch's calls; nil when the call must ask itself
// (ahead false: PreModel hooks are set, and the call asks as they start).
func (a *recheckAhead) ask(next int, ahead bool) *messages.RecheckFiles {
	a.release()
	if !ahead {
		return nil
	}
	a.turn = next
	return &messages.RecheckFiles{Turn: next}
}

// atCall is the model call of turn n asking for its recheck: the answer to deliver now, or
// whether to ask the executor (neither: the answer asked ahead is on its way).
func (a *recheckAhead) atCall(n int) (deliver *messages.FilesRechecked, ask bool) {
	if a.turn != n {
		a.release()
		return nil, true
	}
	if !a.closing {
		if a.answer == nil {
			a.stale = true // held when it arrives (arrived), then asked again
			return nil, false
		}
		a.release()
		return nil, true
	}
	if a.answer == nil {
		return nil, false
	}
	out := a.withHeld(a.answer)
	*a = recheckAhead{closing: a.closing}
	return out, false
}

// arrived takes an answer from the executor; waiting says the call of turn n waits for one
// (its timer is armed). It returns the answer that call takes now, or whether the call must ask
// again (its answer asked ahead came too late to be used as it is).
func (a *recheckAhead) arrived(msg *messages.FilesRechecked, n int, waiting bool) (deliver *messages.FilesRechecked, ask bool) {
	if !waiting || msg.Turn != n {
		if msg.Turn == a.turn && a.answer == nil {
			a.answer = msg // early: its call takes it (atCall)
		} else {
			a.held = append(a.held, msg.Changes...) // late or unasked-for: the next answer carries it
		}
		return nil, false
	}
	if a.turn == n && a.stale {
		a.held = append(a.held, msg.Changes...)
		a.turn, a.stale = 0, false
		return nil, true
	}
	out := a.withHeld(msg)
	*a = recheckAhead{closing: a.closing}
	return out, false
}

// release stops waiting for an answer asked ahead: one already here is held for the next.
func (a *recheckAhead) release() {
	if a.answer != nil {
		a.held = append(a.held, a.answer.Changes...)
	}
	a.turn, a.answer, a.stale = 0, nil, false
}

// withHeld is msg with the held changes before its own; held is emptied.
func (a *recheckAhead) withHeld(msg *messages.FilesRechecked) *messages.FilesRechecked {
	if len(a.held) == 0 {
		return msg
	}
	out := &messages.FilesRechecked{Turn: msg.Turn, Changes: append(slices.Clone(a.held), msg.Changes...)}
	a.held = nil
	return out
}
