package actors

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// Context is a projection (docs/DESIGN-NOTES.md "Context"): before every call
// the session rebuilds what the model sees from its log — the stable prefix, the last compact
// boundary, recent entries verbatim
// (older outputs as previews after an idle gap), state blocks — and keeps it inside the window:
// a warning past pressureWarn, a compaction by the Compactor past the watermark, and a hard
// block before overflow (compact first, mechanically if need be, then call).

// Context thresholds, as fractions of the window.
const (
	pressureWarn     = 0.50
	compactWatermark = 0.60
	hardLimit        = 0.85 // past this the reply itself may not fit
	keepAfterCompact = 0.25 // what stays verbatim after a collapse
	summaryBudget    = 0.08 // the most a summary may cost
	minKeepTurns     = 2
)

// window is the model's context window in tokens: override (--context-window), else the
// known table.
func (d *SessionDeps) window(override int) int {
	if override > 0 {
		return override
	}
	w, _ := projection.Window(d.ModelName)
	return w
}

// prefixTokens estimates the stable prefix: system prompt and tool schemas. The prefix is
// byte-stable across the session's turns, so the budget takes it once, at start.
func (d *SessionDeps) prefixTokens() int {
	data, _ := json.Marshal(d.toolSpecs())
	return projection.EstimateTokens(d.System) + projection.EstimateTokens(string(data))
}

// request projects the model-visible context for the next call.
func (s *session) request() *llm.Request {
	msgs := s.view.Project(projection.Input{Items: s.items, Now: time.Now(), IdleGap: s.cfg.limits.IdleGap,
		State: append(stateBlocks(&s.done, s.asChild.trail.changed, s.kids), s.learn.blocks()...),
		Echo:  &projection.Echo{Stamp: s.deps.Model, Model: s.deps.ModelName}})
	return &llm.Request{
		Model:    s.deps.ModelName,
		System:   s.deps.System,
		Messages: msgs, // shared with the projector's next answers: never modified in place
		Tools:    s.deps.toolSpecs(),
		CacheKey: s.cfg.ID,
		Agent:    s.cfg.handle(),
	}
}

// startCompaction collapses the oldest span of the context into a boundary through the
// Compactor, then runs then. It reports false when there is nothing to collapse. A mechanical
// compaction (no model call) is used when the hard limit leaves no time for one.
func (s *session) startCompaction(ctx actor.Context, reason, focus string, mechanical bool, then func(actor.Context)) bool {
	if s.budget.busy() {
		return false // the recursion guard: one compaction at a time
	}
	keep := int(float64(s.deps.window(s.cfg.limits.ContextWindow)) * keepAfterCompact)
	if mechanical {
		keep /= 4
	}
	from, to, ok := projection.SelectSpan(s.items, keep, minKeepTurns)
	if !ok && mechanical {
		from, to, ok = projection.SelectSpan(s.items, 0, 1)
	}
	if !ok {
		return false
	}
	span := append([]projection.Item(nil), s.items[from:to]...)
	c := s.budget.begin(span, reason, s.budget.tokensOf(s.request()), then)
	s.become(phaseCompacting, s.compactingPhase)
	s.withHooks(ctx, &messages.RunHooks{Event: string(hooks.PreCompact), Trigger: compactTrigger(reason), Focus: focus})
	if mechanical {
		b := projection.Mechanical(span, reason)
		b.Reason = reason
		b.FromSeq, b.ToSeq = projection.SpanSeqs(span)
		ctx.Send(ctx.Self(), &compactDone{id: c.id, boundary: b})
		return true
	}
	ctx.Send(s.compactorPID(ctx), &compactRequest{id: c.id, span: span, focus: focus, reason: reason,
		maxInputBytes: s.deps.window(s.cfg.limits.ContextWindow) * 2, maxSummaryTokens: int(float64(s.deps.window(s.cfg.limits.ContextWindow)) * summaryBudget)})
	return true
}

// compactorPID spawns the Compactor on first use.
func (s *session) compactorPID(ctx actor.Context) *actor.PID {
	if s.links.compactor == nil {
		pid, err := ctx.SpawnNamed(actor.PropsFromProducer(newCompactor(s.deps.Provider, s.deps.ModelName, s.cfg.handle(), s.deps.Retry)), "compactor")
		if err != nil {
			// Without its actor the compaction is done mechanically, right here.
			s.deps.Log.Warn("spawn compactor", "session", s.cfg.ID, "err", err)
			return ctx.Self()
		}
		s.links.compactor = pid
	}
	return s.links.compactor
}

// compactingPhase waits for the compactor; input waits, a cancel ends the turn afterwards.
func (s *session) compactingPhase(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *compactDone:
		s.onCompactDone(ctx, msg)
	case *compactRequest:
		// The compactor could not be spawned: summarize mechanically.
		b := projection.Mechanical(msg.span, msg.reason)
		b.Reason = msg.reason
		b.FromSeq, b.ToSeq = projection.SpanSeqs(msg.span)
		s.onCompactDone(ctx, &compactDone{id: msg.id, boundary: b})
	case *messages.Cancel:
		s.cur.cancelling = msg.Reason
		s.respond(ctx, &messages.InputAck{Routed: messages.RoutedCommand, Output: "cancelling after the compaction"})
	case *messages.UserInput:
		s.busy(ctx)
	}
}

// onCompactDone records the boundary after the span it replaces, and goes on.
func (s *session) onCompactDone(ctx actor.Context, msg *compactDone) {
	c := s.budget.finish(msg.id)
	if c == nil {
		return
	}
	e, err := msg.boundary.Entry()
	if err == nil {
		e.Time = time.Now().UTC()
		err = s.deps.Store.Append(s.cfg.ID, e)
	}
	if err != nil {
		s.fail(ctx, messages.FailInternal, fmt.Sprintf("record the compact boundary: %v", err))
		return
	}
	b := msg.boundary
	s.items = append(s.items, projection.Item{Seq: e.Seq, Time: e.Time, Boundary: &b})
	s.budget.compacted() // the projection's head changed: the last reported count no longer applies
	data := &messages.ContextCompactedData{Turn: s.turn, Reason: c.reason, FromSeq: b.FromSeq, ToSeq: b.ToSeq,
		TokensBefore: c.before, TokensAfter: s.budget.tokensOf(s.request()), Mechanical: b.Mechanical,
		Summary: preview(b.Summary, 400)}
	if msg.err != nil {
		data.Error = msg.err.Error()
		s.emit(messages.ErrorEvent.Of(&messages.ErrorData{Message: "compaction: " + msg.err.Error() + "; a mechanical summary stands in and the session goes on"}))
	}
	s.emit(messages.ContextCompactedEvent.Of(data))
	if s.cur.cancelling != "" {
		s.endCancelledTurn(ctx)
		return
	}
	c.then(ctx)
}

// sendRequest projects the context, keeps it inside the window, and streams the model call in
// a goroutine the session owns (cancelled through streamCancel). Receive never blocks on it.
func (s *session) sendRequest(ctx actor.Context) {
	if s.deliverInstructions(ctx, s.sendRequest) {
		return // nested instruction files are read off the actor first
	}
	req := s.request()
	tokens, window := s.budget.tokensOf(req), s.deps.window(s.cfg.limits.ContextWindow)
	level, step := s.budget.beforeCall(tokens)
	if level != "" {
		s.emit(messages.ContextPressureEvent.Of(&messages.ContextPressureData{Turn: s.turn, Tokens: tokens, Window: window,
			Percent: 100 * float64(tokens) / float64(window), Level: level}))
	}
	switch step {
	case stepCompactMechanical:
		// Compact first, then call: mechanically, since the window has no room to wait for
		// a model summary that could fail.
		if s.startCompaction(ctx, "block", "", true, s.sendRequest) {
			return
		}
	case stepTooLarge:
		s.fail(ctx, messages.FailConfig, fmt.Sprintf("the context (about %d tokens) does not fit the model's window (%d tokens) even after compaction: the latest turn alone is too large; use a larger window (--context-window) or smaller outputs", tokens, window))
		return
	case stepCompact:
		if s.startCompaction(ctx, "auto", "", false, s.sendRequest) {
			return
		}
	}
	s.stream(ctx, req)
}

// compactNow is /compact [focus]: a compaction between turns, through the model.
func (s *session) compactNow(ctx actor.Context, focus string) string {
	before := s.budget.compactions
	if !s.startCompaction(ctx, "manual", focus, false, func(ctx actor.Context) { s.become(phaseIdle, s.idle) }) {
		return "nothing to compact yet: the context is all recent turns"
	}
	return fmt.Sprintf("compacting (compaction %d): the result is reported as context.compacted", before+1)
}

// overflowed handles a provider's "context too long": compact and retry once.
func (s *session) overflowed(ctx actor.Context) bool {
	if !s.budget.overflowed() {
		return false
	}
	return s.startCompaction(ctx, "overflow", "", false, func(ctx actor.Context) {
		s.budget.retryAfterOverflow()
		s.sendRequest(ctx)
	})
}

// stateBlocks is the app state shown to the model after the conversation each turn: the goal,
// the files this session changed, the subagents still running. They are built from state,
// never from old transcript text, so a compaction cannot lose them.
func stateBlocks(done *doneGate, changed []string, kids *children) []projection.StateBlock {
	var blocks []projection.StateBlock
	if b, ok := done.stateBlock(); ok {
		blocks = append(blocks, b)
	}
	if len(changed) > 0 {
		blocks = append(blocks, projection.StateBlock{Title: "Files changed in this session", Body: strings.Join(changed, "\n")})
	}
	var running []string
	for _, c := range kids.unended() {
		running = append(running, fmt.Sprintf("%s (%s): %s", c.rec.Handle, c.rec.Role, c.rec.State))
	}
	if len(running) > 0 {
		blocks = append(blocks, projection.StateBlock{Title: "Subagents running", Body: strings.Join(running, "\n")})
	}
	return blocks
}
