package actors

import (
	"fmt"
	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// contextBudget keeps the model's context inside its window (docs/DESIGN-NOTES.md "Context"). It is a plain value
// owned by the session: it knows what the provider last reported, classifies the pressure
// before each call and decides whether the call waits for a compaction; it owns the
// once-per-turn guards (one automatic compaction, one blocking compaction, one overflow retry)
// and the compaction in flight. The session performs what it decides.
type contextBudget struct {
	window, prefix int // tokens: the model's window and the stable prefix (system and tools)
	acct           projection.Accountant
	compactions    int         // finished in this run
	seq            int         // the id of the last compaction started
	running        *compaction // the compaction in flight, if any
	turn           budgetGuards
}

// budgetGuards are what has been tried in the current turn; each is tried once.
type budgetGuards struct{ autoCompacted, blockCompacted, overflowRetried bool }

// budgetStep is what the session does before a model call.
type budgetStep int

const (
	stepCall              budgetStep = iota // call the model now
	stepCompact                             // compact through the model first, then call
	stepCompactMechanical                   // compact without a model call first: no room to wait
	stepTooLarge                            // it cannot fit even after compaction: fail the session
)

// compaction is one running compaction and what to do when it ends.
type compaction struct {
	id     int
	span   []projection.Item
	reason string
	before int
	then   func(ctx actor.Context)
}

// newTurn clears the once-per-turn guards.
func (b *contextBudget) newTurn() { b.turn = budgetGuards{} }

// tokens estimates what a request with msgs costs: the provider's last count plus the tail.
func (b *contextBudget) tokens(msgs []llm.Message) int { return b.acct.Estimate(msgs, b.prefix) }

// observe takes the provider's count of a call that sent sent messages.
func (b *contextBudget) observe(inputTokens, sent int) { b.acct.Observe(inputTokens, sent) }

// beforeCall classifies a request of tokens and says what must happen before it is sent.
func (b *contextBudget) beforeCall(tokens int) (messages.PressureLevel, budgetStep) {
	level := pressureLevel(tokens, b.window)
	switch {
	case level == messages.PressureBlock && !b.turn.blockCompacted:
		b.turn.blockCompacted = true
		return level, stepCompactMechanical
	case level == messages.PressureBlock:
		return level, stepTooLarge
	case level == messages.PressureCompact && !b.turn.autoCompacted:
		b.turn.autoCompacted = true
		return level, stepCompact
	}
	return level, stepCall
}

// overflowed is a provider's "context too long": it reports whether to compact and retry (once
// per turn).
func (b *contextBudget) overflowed() bool {
	if b.turn.overflowRetried {
		return false
	}
	b.turn.overflowRetried = true
	b.acct.Reset()
	return true
}

// retryAfterOverflow lets the retried call compact mechanically again if it is still blocked.
func (b *contextBudget) retryAfterOverflow() { b.turn.blockCompacted = false }

// begin starts a compaction of span; nil while another runs (one at a time).
func (b *contextBudget) begin(span []projection.Item, reason string, before int, then func(actor.Context)) *compaction {
	if b.running != nil {
		return nil
	}
	b.seq++
	b.running = &compaction{id: b.seq, span: span, reason: reason, before: before, then: then}
	return b.running
}

// busy reports whether a compaction runs.
func (b *contextBudget) busy() bool { return b.running != nil }

// finish ends the compaction with id and returns it; nil for a stale or unknown id.
func (b *contextBudget) finish(id int) *compaction {
	c := b.running
	if c == nil || c.id != id {
		return nil
	}
	b.running = nil
	return c
}

// compacted records a boundary in the log: the provider's last count no longer applies.
func (b *contextBudget) compacted() {
	b.compactions++
	b.acct.Reset()
}

// pressureLevel classifies how full the window is.
func pressureLevel(tokens, window int) messages.PressureLevel {
	f := float64(tokens) / float64(window)
	switch {
	case f >= hardLimit:
		return messages.PressureBlock
	case f >= compactWatermark:
		return messages.PressureCompact
	case f >= pressureWarn:
		return messages.PressureWarning
	}
	return ""
}

// tokensOf is what req will cost: the provider's last count plus the tail.
func (b *contextBudget) tokensOf(req *llm.Request) int { return b.tokens(req.Messages) }

// fit sizes the budget to the model's window and the stable prefix, and refuses a window the
// prefix alone fills: no call could ever succeed.
func (b *contextBudget) fit(window, prefix int) error {
	b.window, b.prefix = window, prefix
	if prefix >= int(float64(window)*compactWatermark) {
		return fmt.Errorf("the context window (%d tokens) is too small for the stable prefix (system prompt and tool schemas: about %d tokens); use a model with a larger window or raise --context-window", window, prefix)
	}
	return nil
}
