package actors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// turnState is the turn in flight: what runs off the actor for it, how it is going, and its
// steering (reply classes, loops, repairs; actors/turn). It decides what a model reply, a
// failed call or the end of the turn's tool calls leads to and returns that as a turnStep; it
// never emits, commits or sends — the session carries the step out (session_turn.go).
type turnState struct {
	// cancelWork stops the turn's model call, which runs off the actor.
	cancelWork context.CancelFunc
	// recheck is armed while the executor re-checks the files before the model call (its
	// timeout); checkFor is the final answer waiting on the check command.
	recheck    *time.Timer
	ahead      recheckAhead // the recheck asked with the batch, for the call after it (turn_recheck.go)
	checkFor   string
	batch      *toolBatch // the turn's tool calls, while they run
	metaStored bool       // the meta and counters went with the turn's last result (syncStore)
	cancelling string     // non-empty once a Cancel arrived mid-turn: its reason
	// How often the model replied with nothing, or was cut off, in a row (nudges, then a failure).
	emptyReplies, lengthContinues int
	finalPending                  *string // a headless session's final answer, held while its children finish

	// steer is made on first use by newSteer (the session's tools are known by then).
	steer    *turn.Steering
	newSteer func() *turn.Steering
	// describe names what a call runs as, for its events (session_tools.go, callDataFor).
	describe func(n int, c llm.ToolCall) *messages.ToolCallData
}

// turnNext is where a turn goes once a step's events and commits are done.
type turnNext int

const (
	turnStays        turnNext = iota // nothing more: the turn waits where it is
	turnGoesOn                       // the calls are done: the next call, unless subagents hold it
	turnPrepares                     // the files were rechecked: what arrived goes into the context, then the call
	turnCallsAgain                   // the model is called again (after the step's note)
	turnRunsCalls                    // the step's batch goes to the executor
	turnAnswers                      // the reply is a final answer, to be verified
	turnWaitsForUser                 // a chat's reply is a question or an accepted answer: wait for the user
	turnPauses                       // a chat is paused on a loop: tell the user (reason), wait
	turnChecks                       // the check command runs before the answer (checkFor) is accepted
	turnAccepted                     // the answer passed the gate: the Stop hooks have the last word, then accepted
	turnFails                        // the run fails (fail, reason)
	turnCancelled                    // the cancelled turn ends
	turnOverflowed                   // the context overflowed: compact and call again, or fail (fail, reason)
)

// turnStep is what the turn decided, in the order the session carries it out: emit, commit the
// reply, then, sync, commit the note, go next.
type turnStep struct {
	emit   []messages.Payload
	reply  *llm.Reply // the assistant reply to record
	then   []messages.Payload
	sync   bool   // make the turn durable (the session's meta, the repair counters)
	note   string // a note to the model
	next   turnNext
	batch  *toolBatch // turnRunsCalls
	answer string     // turnAnswers
	fail   messages.FailKind
	reason string
	audit  []auditRecord // audit-only log entries, written after the events
	// tell goes to the executor and respond answers the request at hand, before the turn moves.
	tell, respond any
}

// auditRecord is an audit-only log entry: the model never sees it; `troupe log` does.
type auditRecord struct {
	event        messages.EventType
	callID, tool string
	data         any
}

// steeringFor makes a session's steering from its dependencies as they are when it is first
// needed (a /model switch before the first reply changes the tools).
func steeringFor(deps *SessionDeps, noRepair bool) func() *turn.Steering {
	return func() *turn.Steering {
		known := func(string) bool { return false }
		if deps.Tools != nil {
			known = deps.Tools.Knows
		}
		steer := turn.NewSteering(!noRepair, turn.Textcall(llm.QuirksFor(deps.ModelName).TextFormat), known)
		if deps.Tools != nil {
			steer.Classifier.FitArgs = deps.Tools.ToolFittingArgs
			if !noRepair {
				steer.Classifier.Split = deps.Tools.Split
				steer.Classifier.Salvage = turn.NewSalvager(deps.Tools.Knows, deps.Tools.FitCall)
			}
		}
		return steer
	}
}

func (t *turnState) steering() *turn.Steering {
	if t.steer == nil {
		if t.newSteer == nil {
			t.newSteer = steeringFor(&SessionDeps{}, false)
		}
		t.steer = t.newSteer()
	}
	return t.steer
}

// finished is turn n's turn.finished event, with the class of its reply.
func (t *turnState) finished(n int, stop messages.StopReason) messages.Payload {
	return messages.TurnFinishedEvent.Of(&messages.TurnFinishedData{Turn: n, Stop: stop, Class: t.steering().Class})
}

// streamed is the event of a delta of turn n's model call (the zero Payload: a late one, or a kind not shown).
func (t *turnState) streamed(n int, msg *modelEvent) messages.Payload {
	if msg.turn != n {
		return messages.Payload{}
	}
	switch msg.ev.Kind {
	case llm.EventText:
		return messages.TextDeltaEvent.Of(&messages.DeltaData{Turn: n, Text: msg.ev.Text})
	case llm.EventReasoning:
		return messages.ReasoningDeltaEvent.Of(&messages.DeltaData{Turn: n, Text: msg.ev.Text})
	case llm.EventQuirk:
		return messages.WireQuirkEvent.Of(&messages.WireQuirkData{Turn: n, Quirk: msg.ev.Text})
	}
	return messages.Payload{}
}

// retried is the event of a retry of turn n's model call (the zero Payload: a late one).
func (t *turnState) retried(n int, msg *modelRetry) messages.Payload {
	if msg.turn != n {
		return messages.Payload{}
	}
	d := &messages.ModelRetryData{Turn: n, Attempt: msg.info.Attempt, DelayMS: msg.info.Delay.Milliseconds()}
	if msg.info.Err != nil {
		d.Status, d.Reason = msg.info.Err.Status, msg.info.Err.Error()
	}
	return messages.ModelRetryEvent.Of(d)
}

// replied decides on the end of turn n's model call (docs/ARCHITECTURE.md, "How a turn flows"):
// tool calls, final text, cut off by length, empty, refusal — or a failed call. The reply is
// the call's, changed to what the log records.
func (t *turnState) replied(n int, msg *modelDone, interactive bool) turnStep {
	steer := t.steering()
	steer.Class = ""
	t.stopWork()
	t.cancelWork = nil
	switch {
	case t.cancelling != "":
		return turnStep{next: turnCancelled}
	case msg.err != nil:
		return t.failed(n, msg.err)
	}
	r := msg.reply
	d := steer.Classifier.Classify(r, n)
	steer.Class = d.Class
	switch d.Class {
	case messages.ReplyToolCalls, messages.ReplyTextCalls:
		// Recovered text calls are recorded as structured calls, with the prose as the text,
		// so the transcript stays well-formed; the log records the batch's unique ids.
		steer.Landed()
		batch, calls := newToolBatch(n, d.Calls)
		batch.inferred = d.Inferred
		r.Text, r.ToolCalls = d.Text, calls
		step := turnStep{reply: r, next: turnRunsCalls, batch: batch}
		for i := range d.Repairs {
			steer.Tally.Mark(d.Repairs[i].CallID, d.Repairs[i].Kind)
			step.then = append(step.then, messages.ToolRepairedEvent.Of(&d.Repairs[i]))
		}
		return step
	case messages.ReplyRefusal:
		return turnStep{reply: r, then: []messages.Payload{t.finished(n, messages.StopRefusal)},
			next: turnFails, fail: messages.FailModel, reason: "the model refused: " + firstLine(r.Text)}
	case messages.ReplyLength:
		return t.cutOffReply(n, r, d)
	case messages.ReplyEmpty:
		done := []messages.Payload{t.finished(n, messages.StopEmpty)}
		if failure := t.emptyReply(); failure != "" {
			return turnStep{emit: done, next: turnFails, fail: messages.FailModel, reason: failure}
		}
		return turnStep{emit: done, note: "Your last reply was empty. Continue the task with a tool call, or give your final answer as text.", next: turnCallsAgain}
	case messages.ReplyMalformed, messages.ReplyReasoningOnly:
		return t.notLanded(n, r, d)
	}
	// A final answer, or a question to the user (a headless run has nobody to ask: there the
	// question is the final answer).
	if d.Class == messages.ReplyQuestion && interactive {
		return turnStep{reply: r, then: []messages.Payload{t.finished(n, messages.StopEnd)}, sync: true, next: turnWaitsForUser}
	}
	return turnStep{reply: r, next: turnAnswers, answer: r.Text}
}

// cutOffReply keeps a reply cut off by the output limit (a repair: continuation) and asks the
// model to go on, a bounded number of times in a row.
func (t *turnState) cutOffReply(n int, r *llm.Reply, d turn.Decision) turnStep {
	done := []messages.Payload{t.finished(n, messages.StopLength)}
	if failure := t.cutOff(); failure != "" {
		return turnStep{emit: done, next: turnFails, fail: messages.FailModel, reason: failure}
	}
	t.steering().Tally.Repair(string(tools.RepairContinuation))
	done = append(done, messages.ToolRepairedEvent.Of(&messages.ToolRepairedData{Turn: n, Kind: string(tools.RepairContinuation),
		Before: "reply cut off by the output limit", After: "asked to continue"}))
	r.Text, r.ToolCalls = d.Text, nil // a call cut off mid-arguments is not a call
	return turnStep{emit: done, reply: r, note: d.Note, next: turnCallsAgain}
}

// notLanded answers a reply that did not land (a malformed call, reasoning only) with one
// precise note and a new call, a bounded number of times in a row.
func (t *turnState) notLanded(n int, r *llm.Reply, d turn.Decision) turnStep {
	steer := t.steering()
	done := []messages.Payload{t.finished(n, messages.StopReason(r.Stop))}
	if steer.Nudge() {
		step := turnStep{emit: done, note: d.Note, next: turnCallsAgain}
		if d.Text != "" {
			r.ToolCalls = nil
			step.reply = r
		}
		return step
	}
	if d.Class == messages.ReplyMalformed {
		// Told twice and still no readable call: the text stands as the answer (an attempt
		// read wrongly must not fail a run that may be done).
		steer.Landed()
		r.ToolCalls = nil
		return turnStep{emit: done, reply: r, next: turnAnswers, answer: r.Text}
	}
	return turnStep{emit: done, next: turnFails, fail: messages.FailModel,
		reason: fmt.Sprintf("the model's replies did not land %d times in a row (last: %s)", steer.Nudges(), d.Class)}
}

// failed decides on turn n's model call that failed for good (retries are already spent).
func (t *turnState) failed(n int, err error) turnStep {
	step := turnStep{emit: []messages.Payload{t.finished(n, messages.StopError)}, next: turnFails}
	var le *llm.Error
	errors.As(err, &le)
	switch {
	case llm.ClassOf(err) == llm.Canceled:
		step.next = turnCancelled
	case llm.ClassOf(err) == llm.Overflow:
		// compacted and called again; a compaction that cannot start fails as the provider's error
		step.next, step.fail, step.reason = turnOverflowed, messages.FailProvider, err.Error()
	case le != nil && (le.Status == 401 || le.Status == 403):
		step.fail, step.reason = messages.FailConfig, fmt.Sprintf("the provider rejected the credentials: %v — check the API key", err)
	case llm.IsUnreachable(err):
		step.fail, step.reason = messages.FailConfig, fmt.Sprintf("%v — is the server running? check --base-url", err)
	case llm.ClassOf(err) == llm.Fatal:
		step.fail, step.reason = messages.FailConfig, err.Error() // a bad request or an unknown model: the setup
	default:
		step.fail, step.reason = messages.FailProvider, err.Error()
	}
	return step
}

// verdictNote is what a subagent whose role owes a verdict is told when its answer has none.
const verdictNote = "Your role must end its final answer with a line `VERDICT: pass` or `VERDICT: fail`, after the evidence " +
	"(commands run and their outcome). Give your final answer again in that form."

// answered decides on turn n's final answer (docs/ARCHITECTURE.md, "The definition of done"):
// the turn is made durable, then the answer is refused while the role's verdict is missing (child)
// or the gate refuses it, checked first, or passed on to the Stop hooks (turnAccepted).
func (t *turnState) answered(n int, text string, child *childState, gate *doneGate, interactive bool) turnStep {
	step := turnStep{emit: []messages.Payload{t.finished(n, messages.StopEnd)}, sync: true}
	if child.needsVerdict(text) {
		step.note, step.next = verdictNote, turnCallsAgain
		return step
	}
	return t.gated(step, gate.judge(n), text, interactive)
}

// checked decides on the check command's result for the answer that waits on it.
func (t *turnState) checked(n int, res *messages.CheckResult, gate *doneGate, interactive bool) turnStep {
	text := t.checkFor
	t.checkFor = ""
	if t.cancelling != "" {
		return turnStep{next: turnCancelled}
	}
	return t.gated(turnStep{}, gate.checked(n, res), text, interactive)
}

// gated adds the gate's answer about text to step: the check's event, then the refusal told to
// the model, the run's failure, the check to run, or the answer accepted.
func (t *turnState) gated(step turnStep, d doneStep, text string, interactive bool) turnStep {
	if d.event != nil {
		step.emit = append(step.emit, messages.DoneCheckEvent.Of(d.event))
	}
	switch r := d.refusal; {
	case r != nil && r.fail != "":
		step.next, step.fail, step.reason = turnFails, messages.FailDone, r.fail
	case r != nil:
		step.note, step.next = r.note, turnCallsAgain
	case d.runCheck:
		t.checkFor, step.next = text, turnChecks
	default:
		step.next, step.answer = turnAccepted, text
	}
	return step
}

// accepted takes a final answer that passed the gate and the Stop hooks: a chat waits for the
// user; a headless run holds it until its subagents have ended (their results may change it).
func (t *turnState) accepted(text string, interactive bool) turnStep {
	if interactive {
		return turnStep{next: turnWaitsForUser}
	}
	t.finalPending = &text
	return turnStep{next: turnGoesOn}
}

// stopWork stops the turn's model call, if one runs.
func (t *turnState) stopWork() {
	if t.cancelWork != nil {
		t.cancelWork()
	}
}

// stopRecheck forgets the recheck in flight for turn (the current one is now); false if none
// was (a late or repeated answer).
func (t *turnState) stopRecheck(turn, now int) bool {
	if t.recheck == nil || turn != now {
		return false
	}
	t.recheck.Stop()
	t.recheck = nil
	return true
}

// newInput starts the counts of replies in a row over: the user spoke.
func (t *turnState) newInput() { t.emptyReplies, t.lengthContinues = 0, 0 }

// emptyReply counts an empty reply; past maxEmptyReplies in a row it returns the failure.
func (t *turnState) emptyReply() string {
	t.emptyReplies++
	if t.emptyReplies > maxEmptyReplies {
		return fmt.Sprintf("the model replied with nothing %d times in a row", t.emptyReplies)
	}
	return ""
}

// cutOff counts a reply cut off by the output limit; past maxLengthContinues it returns the
// failure.
func (t *turnState) cutOff() string {
	t.lengthContinues++
	if t.lengthContinues > maxLengthContinues {
		return "the model's reply was cut off by its output limit too many times"
	}
	return ""
}

// cancel records that a Cancel arrived mid-turn, with its reason.
func (t *turnState) cancel(reason string) {
	if reason == "" {
		reason = "cancelled by the user"
	}
	t.cancelling = reason
}
