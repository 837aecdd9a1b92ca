package actors

import (
	"fmt"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// The turn's tool calls (turnState, turn_state.go): what the executor reports about them
// becomes events, each finished call feeds the steering, and the end of the calls is decided.

// toolStarted is the tool.started event of a call of the batch the executor began (the zero
// Payload: not one of ours, or reported already).
func (t *turnState) toolStarted(n int, msg *messages.ToolStarted, now time.Time) messages.Payload {
	if c, ok := t.batch.Started(msg.CallID, now); ok {
		return messages.ToolStartedEvent.Of(t.callData(n, c))
	}
	return messages.Payload{}
}

// approvalNeeded is the approval request of a call of the batch, remembered until answered
// (the zero Payload: no such call waits).
func (t *turnState) approvalNeeded(msg *messages.ApprovalNeeded) messages.Payload {
	ask := &messages.ApprovalRequestedData{Turn: msg.Turn, CallID: msg.CallID, Reason: msg.Reason, Summary: msg.Summary}
	if t.batch == nil || !t.batch.Await(ask) {
		return messages.Payload{}
	}
	return messages.ToolApprovalEvent.Of(ask)
}

// approve takes a client's answer to an approval request of the batch (session is the
// session's id, for the refusal): it goes to the executor, which applies it.
func (t *turnState) approve(msg *messages.Approve, session string) turnStep {
	switch {
	case !t.batch.Awaiting(msg.CallID):
		return turnStep{respond: &messages.ErrorReply{Error: fmt.Sprintf("no approval is pending for call %q in session %s", msg.CallID, session)}}
	case msg.Answer != messages.AnswerAllow && msg.Answer != messages.AnswerDeny && msg.Answer != messages.AnswerAllowSession:
		return turnStep{respond: &messages.ErrorReply{Error: fmt.Sprintf("answer %q: use allow, deny or allow-session", msg.Answer)}}
	}
	t.batch.Answered(msg.CallID)
	return turnStep{tell: &messages.ApprovalAnswer{CallID: msg.CallID, Answer: msg.Answer, By: msg.By},
		respond: &messages.ApproveAck{CallID: msg.CallID, Answer: msg.Answer}}
}

// decided records what the executor decided about a call of turn n: an event and an audit entry.
func (t *turnState) decided(n int, msg *messages.ToolDecision) turnStep {
	if msg.Turn != n {
		return turnStep{}
	}
	ev := messages.ToolDecisionEvent
	if msg.Decision == messages.DecisionRejected || msg.Decision == messages.DecisionDenied {
		ev = messages.ToolRejectedEvent
	}
	p := ev.Of(&messages.DecisionData{Turn: msg.Turn, CallID: msg.CallID, Tool: msg.Tool, Decision: msg.Decision, Reason: msg.Reason})
	return turnStep{emit: []messages.Payload{p}, audit: []auditRecord{{p.EventType(), msg.CallID, msg.Tool, p.Data()}}}
}

// filesAnswer takes a FilesRechecked from the executor: the call of turn n that waits for it
// goes on (rechecked) or asks again, or the answer is kept for a later call (recheckAhead).
func (t *turnState) filesAnswer(n int, msg *messages.FilesRechecked) turnStep {
	deliver, ask := t.ahead.arrived(msg, n, t.recheck != nil)
	switch {
	case deliver != nil:
		return t.rechecked(n, deliver)
	case ask:
		return turnStep{tell: &messages.RecheckFiles{Turn: n}}
	}
	return turnStep{}
}

// rechecked takes the executor's answer about the files before turn n's call: external edits
// and deletions become events and a note to the model, then the call is prepared. A late or
// repeated answer changes nothing.
func (t *turnState) rechecked(n int, msg *messages.FilesRechecked) turnStep {
	if !t.stopRecheck(msg.Turn, n) {
		return turnStep{}
	}
	step := turnStep{next: turnPrepares}
	if len(msg.Changes) == 0 {
		return step
	}
	notes := make([]string, 0, len(msg.Changes))
	for _, c := range msg.Changes {
		step.emit = append(step.emit, messages.FileChangedEvent.Of(&messages.FileChangedData{Turn: n, Path: c.Path, Kind: c.Kind, Diff: c.Diff}))
		notes = append(notes, tools.FileChange{Path: c.Path, Kind: c.Kind, Diff: c.Diff}.Note())
	}
	step.note = "Files changed outside this session:\n" + strings.Join(notes, "\n")
	return step
}

// callData is what call c of turn n runs as, for its events: worked out once for a call of the
// batch in flight (its proposed, started and finished events name the same), a copy each time.
func (t *turnState) callData(n int, c llm.ToolCall) *messages.ToolCallData {
	if t.describe == nil {
		return &messages.ToolCallData{Turn: n, CallID: c.ID, Tool: c.Name, Args: c.Args, Summary: callSummary(c)}
	}
	bc := t.batch.find(n, c.ID)
	if bc == nil || bc.call.Name != c.Name || bc.call.Args != c.Args {
		return t.describe(n, c)
	}
	if bc.described == nil {
		bc.described = t.describe(n, c)
	}
	d := *bc.described
	return &d
}

// observed makes a finished call of turn n feed the steering and returns its repairs as
// tool.repaired events.
func (t *turnState) observed(n int, call llm.ToolCall, res *messages.ToolResult) []messages.Payload {
	steer := t.steering()
	kinds := steer.Tally.KindsOf(call.ID)
	var evs []messages.Payload
	for _, rp := range res.Repairs {
		evs = append(evs, messages.ToolRepairedEvent.Of(&messages.ToolRepairedData{Turn: n, CallID: call.ID, Tool: call.Name,
			Kind: rp.Kind, Before: rp.Before, After: rp.After}))
		kinds = append(kinds, rp.Kind)
	}
	steer.Observe(turn.Observation{Turn: n, Name: call.Name, Args: call.Args, Output: res.Output,
		IsError: res.IsError, Changed: res.Changed}, kinds)
	return evs
}

// callsDone decides on the end of turn n's tool calls: the turn is made durable and goes on,
// unless it was cancelled or a loop was found in it — a note, then the evidence; at the last
// level a chat pauses for the user and a headless run fails (kind loop).
func (t *turnState) callsDone(n int, interactive bool) turnStep {
	t.batch = nil
	if t.cancelling != "" {
		return turnStep{next: turnCancelled}
	}
	step := turnStep{emit: []messages.Payload{t.finished(n, messages.StopToolCalls)}, sync: true, next: turnGoesOn}
	loop := t.steering().EndTurn()
	if loop != nil {
		step.emit = append(step.emit, messages.LoopSteeredEvent.Of(&messages.LoopSteeredData{Turn: n, Kind: string(loop.Kind), Level: loop.Level, Evidence: loop.Evidence}))
	}
	switch {
	case loop == nil:
	case loop.Level < turn.LevelStop:
		step.note = loop.Note()
	case !interactive:
		step.next, step.fail, step.reason = turnFails, messages.FailLoop, loop.Summary()
	default:
		step.note, step.next = loop.Note(), turnPauses
		step.reason = "paused: " + loop.Summary() + " — tell it how to go on, or give it a different instruction"
	}
	return step
}

// repairsFor is repairsToFlush for a write of the meta: none without a model (counters without
// one would fail the write).
func (t *turnState) repairsFor(model string) store.RepairStats {
	repairs, ok := t.repairsToFlush(model)
	if !ok || model == "" {
		return store.RepairStats{}
	}
	return repairs
}

// repairsToFlush is the repair counters gathered since the last flush, for the project's
// per-model counters (false: none).
func (t *turnState) repairsToFlush(model string) (store.RepairStats, bool) {
	if t.steer == nil || t.steer.Tally.Pending.Empty() {
		return store.RepairStats{}, false
	}
	return t.steer.Tally.Flush(model), true
}
