package actors

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// The session's side of steering and repair (issue 9): the decisions are made by actors/turn;
// here they are acted on — committed, emitted, counted.

// steering is the session's turn steering, made on first use (the tools are known by then).
func (s *session) steering() *turn.Steering {
	if s.steer == nil {
		known := func(string) bool { return false }
		if s.deps.Tools != nil {
			known = s.deps.Tools.Knows
		}
		s.steer = turn.NewSteering(!s.cfg.NoRepair, turn.Textcall(llm.QuirksFor(s.deps.ModelName).TextFormat), known)
		if s.deps.Tools != nil {
			s.steer.Classifier.FitArgs = s.deps.Tools.ToolFittingArgs
			if !s.cfg.NoRepair {
				s.steer.Classifier.Split = s.deps.Tools.Split
			}
		}
	}
	return s.steer
}

// turnFinished emits turn.finished with the class of the turn's reply.
func (s *session) turnFinished(stop messages.StopReason) {
	s.emit(messages.TurnFinishedEvent.Of(&messages.TurnFinishedData{Turn: s.turn, Stop: stop, Class: s.steering().Class}))
}

// runCalls commits the reply's calls (recovered text calls as structured calls, with the
// prose as the assistant's text, so the transcript stays well-formed) and dispatches them.
func (s *session) runCalls(ctx actor.Context, r *llm.Reply, d turn.Decision) {
	s.steering().Landed()
	batch, calls := newToolBatch(s.turn, d.Calls)
	batch.inferred = d.Inferred
	r.Text, r.ToolCalls = d.Text, calls // the log records the batch's unique ids, so it pairs
	if err := s.commitAssistant(r); err != nil {
		s.fail(ctx, messages.FailInternal, err.Error())
		return
	}
	for i := range d.Repairs {
		s.steering().Tally.Mark(d.Repairs[i].CallID, d.Repairs[i].Kind)
		s.emit(messages.ToolRepairedEvent.Of(&d.Repairs[i]))
	}
	s.dispatch(ctx, batch)
}

// nudgeReply answers a reply that did not land (a malformed call, reasoning only) with one
// precise note and a new turn, a bounded number of times in a row.
func (s *session) nudgeReply(ctx actor.Context, r *llm.Reply, d turn.Decision) {
	s.turnFinished(messages.StopReason(r.Stop))
	if !s.steering().Nudge() {
		if d.Class == messages.ReplyMalformed {
			// Told twice and still no readable call: the text stands as the answer (an
			// attempt read wrongly must not fail a run that may be done).
			s.steering().Landed()
			r.ToolCalls = nil
			if err := s.commitAssistant(r); err != nil {
				s.fail(ctx, messages.FailInternal, err.Error())
				return
			}
			s.finalAnswer(ctx, r.Text)
			return
		}
		s.fail(ctx, messages.FailModel, fmt.Sprintf("the model's replies did not land %d times in a row (last: %s)", s.steering().Nudges(), d.Class))
		return
	}
	if d.Text != "" {
		r.ToolCalls = nil
		if err := s.commitAssistant(r); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
	}
	s.noteAndCallAgain(ctx, d.Note)
}

// askUser ends a chat turn whose reply is a question: the session waits for the user's answer.
// (A headless run has nobody to ask; there the question is the final answer.)
func (s *session) askUser(ctx actor.Context) {
	s.turnFinished(messages.StopEnd)
	s.syncStore()
	s.become(phaseIdle, s.idle)
}

// observeCall makes a finished call's repairs visible (tool.repaired) and feeds the steering.
func (s *session) observeCall(call llm.ToolCall, res *messages.ToolResult) {
	kinds := s.steering().Tally.KindsOf(call.ID)
	for _, rp := range res.Repairs {
		s.emit(messages.ToolRepairedEvent.Of(&messages.ToolRepairedData{Turn: s.turn, CallID: call.ID, Tool: call.Name,
			Kind: rp.Kind, Before: rp.Before, After: rp.After}))
		kinds = append(kinds, rp.Kind)
	}
	s.steering().Observe(turn.Observation{Turn: s.turn, Name: call.Name, Args: call.Args, Output: res.Output,
		IsError: res.IsError, Changed: res.Changed}, kinds)
}

// continued counts a reply cut off by the output limit and continued as a repair.
func (s *session) continued() {
	s.steering().Tally.Repair(string(tools.RepairContinuation))
	s.emit(messages.ToolRepairedEvent.Of(&messages.ToolRepairedData{Turn: s.turn, Kind: string(tools.RepairContinuation),
		Before: "reply cut off by the output limit", After: "asked to continue"}))
}

// flushRepairs adds the turn's repair counters to the project's per-model counters; like the
// session's meta, one small Badger transaction per turn.
func (s *session) flushRepairs() {
	if s.steer == nil || s.steer.Tally.Pending.Empty() || s.deps.Store == nil {
		return
	}
	if err := s.deps.Store.AddRepairs(s.steer.Tally.Flush(s.deps.Model)); err != nil {
		s.deps.Log.Warn("record repair counters", "session", s.cfg.ID, "err", err)
	}
}

// steerLoops acts on a loop found in the turn that just ended: a note, then the evidence; at the
// last level a chat pauses for the user and a headless run fails (kind loop). It reports whether
// the turn may go on.
func (s *session) steerLoops(ctx actor.Context) bool {
	loop := s.steering().EndTurn()
	if loop == nil {
		return true
	}
	s.emit(messages.LoopSteeredEvent.Of(&messages.LoopSteeredData{Turn: s.turn, Kind: string(loop.Kind), Level: loop.Level, Evidence: loop.Evidence}))
	if loop.Level < turn.LevelStop {
		if err := s.commit(noteEntry(loop.Note())); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return false
		}
		return true
	}
	if !s.cfg.Interactive {
		s.fail(ctx, messages.FailLoop, loop.Summary())
		return false
	}
	if err := s.commit(noteEntry(loop.Note())); err != nil {
		s.fail(ctx, messages.FailInternal, err.Error())
		return false
	}
	s.emit(messages.ErrorEvent.Of(&messages.ErrorData{Message: "paused: " + loop.Summary() + " — tell it how to go on, or give it a different instruction"}))
	s.become(phaseIdle, s.idle)
	return false
}

// repairStatus is the /status line of a session's repairs with model ("" before any call).
func repairStatus(steer *turn.Steering, model string) string {
	if steer == nil {
		return ""
	}
	t := steer.Tally.Total
	t.Model = model
	return turn.RepairLine(t)
}

// withQuirkHint adds the model family's one line of steering to the system prompt, if it has
// one and repair is on.
func withQuirkHint(system, modelName string, repair bool) string {
	if hint := llm.QuirksFor(modelName).PromptHint; repair && hint != "" {
		return system + "\n\n" + hint
	}
	return system
}
