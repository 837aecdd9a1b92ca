package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/textcall"
)

// The TUI's conversation: what the user typed, the assistant's answer and reasoning, one entry
// per tool call, and notes (errors, retries, denials, command output). It is a plain value the
// Bubble Tea model owns; events of this session are applied to it in the order they arrive.

// entryKind is what an entry of the transcript shows.
type entryKind int

const (
	entryUser entryKind = iota
	entryAnswer
	entryReasoning
	entryTool
	entryNote
)

// entry is one block of the transcript.
type entry struct {
	kind entryKind
	turn int
	text string // user input, streamed answer or reasoning, a note
	open bool   // an answer or reasoning still streaming

	// Tool calls.
	callID, summary string
	running, done   bool
	failed          bool
	outcome         string // first line of the result, or why it was refused
	output, diff    string // shown when expanded
	bytes           int
	ms              int64
	expanded        bool
}

// transcript is the conversation and the counters the status line shows.
type transcript struct {
	entries []*entry
	calls   map[string]*entry // tool entries by call id
	diffs   map[string]string // approval previews by call id, for the expanded view

	inTokens, outTokens int
	contextPct          float64 // -1 until known
	phase               string  // "thinking", "tool …", "" when nothing runs
	finished            *messages.SessionFinishedData
}

func newTranscript() *transcript {
	return &transcript{calls: map[string]*entry{}, diffs: map[string]string{}, contextPct: -1}
}

// addUser records a line the user sent.
func (t *transcript) addUser(text string) { t.add(&entry{kind: entryUser, text: text}) }

// note records a line from troupe itself (command output, an error, an answered approval).
func (t *transcript) note(format string, args ...any) {
	t.add(&entry{kind: entryNote, text: fmt.Sprintf(format, args...)})
}

func (t *transcript) add(e *entry) { t.entries = append(t.entries, e) }

// apply takes one decoded event of this session. It reports whether the turn may have ended
// (the caller asks the session whether it is idle: a refused final answer keeps it working).
func (t *transcript) apply(typ messages.EventType, v any) (turnOver bool) {
	switch d := v.(type) {
	case *messages.TurnStartedData:
		t.phase = phaseThinking
	case *messages.DeltaData:
		kind := entryAnswer
		if typ == messages.EventReasoningDelta {
			kind = entryReasoning
		}
		t.stream(kind, d.Turn, d.Text)
	case *messages.ToolRepairedData:
		t.dropCallMarkup(d)
	case *messages.ToolCallData:
		t.toolCall(typ, d)
	case *messages.ToolFinishedData:
		t.toolFinished(d)
	case *messages.ApprovalRequestedData:
		if d.Summary.Diff != "" {
			t.diffs[d.CallID] = d.Summary.Diff
		}
	case *messages.DecisionData:
		t.decision(typ, d)
	case *messages.ModelRetryData:
		t.dropOpen(entryAnswer)
		t.dropOpen(entryReasoning)
		t.note("model call failed (%s); retry %d in %s", firstLineOf(d.Reason), d.Attempt, time.Duration(d.DelayMS)*time.Millisecond)
	case *messages.UsageData:
		t.inTokens, t.outTokens = d.TotalInputTokens, d.TotalOutputTokens
	case *messages.ContextPressureData:
		t.contextPct = d.Percent
	case *messages.ErrorData:
		t.note("error: %s", d.Message)
	case *messages.HookFinishedData:
		if line := hookLine(d); line != "" {
			t.note("%s", line)
		}
	case *messages.ContextCompactedData:
		t.note("context compacted (%s): %s → %s tokens", d.Reason, fmtTokens(d.TokensBefore), fmtTokens(d.TokensAfter))
	case *messages.MCPToolsChangedData:
		t.note("mcp server %s changed its tools: %s", d.Server, mcpChange(d))
	case *messages.GoalUpdatedData:
		t.note("goal %s by %s: %s", d.Status, d.By, d.Objective)
	case *messages.DoneCheckData:
		if d.Passed {
			t.note("✓ check passed: %s", d.Command)
		} else {
			t.note("not done yet (%s check, refusal %d of %d): %s", d.Kind, d.Refusals, d.Max, firstLineOf(d.Output))
		}
	case *messages.LessonStoredData:
		t.note("%s", LessonStoredLine(d))
	case *messages.LessonsGivenData:
		t.note("%s from earlier sessions given (%s)", textfmt.Count(len(d.IDs), "lesson"), d.Cause)
	case *messages.AgentSpawnedData:
		t.note("⤷ %s (%s): %s", d.Handle, d.Role, firstLineOf(d.Task))
	case *messages.AgentResult:
		t.note("⤶ %s %s: %s", d.Handle, d.Status, firstLineOf(d.Summary+d.Error))
	case *messages.TurnFinishedData:
		t.closeOpen()
		return d.Stop == "end" || d.Stop == "cancelled"
	case *messages.SessionFinishedData:
		t.closeOpen()
		t.phase, t.finished = "", d
		return true
	}
	return false
}

// stream appends streamed text to the open entry of its kind, or opens one.
func (t *transcript) stream(kind entryKind, turn int, text string) {
	if n := len(t.entries); n > 0 {
		if last := t.entries[n-1]; last.kind == kind && last.open {
			last.text += text
			return
		}
	}
	if kind == entryAnswer {
		t.closeOpen() // the reasoning before it is complete
	}
	t.add(&entry{kind: kind, turn: turn, text: text, open: true})
}

// dropCallMarkup takes the raw markup of a call written as text out of the answer it streamed
// in: the call shows as its own tool entry, and the answer keeps the prose before it.
func (t *transcript) dropCallMarkup(d *messages.ToolRepairedData) {
	n := len(t.entries)
	if d.Kind != string(tools.RepairTextFormat) || n == 0 || t.entries[n-1].kind != entryAnswer {
		return
	}
	last := t.entries[n-1]
	if at, whole := textcall.HoldFrom(last.text); whole {
		last.text = strings.TrimRight(last.text[:at], " \t\n")
	}
}

func (t *transcript) toolCall(typ messages.EventType, d *messages.ToolCallData) {
	t.closeOpen()
	e := t.calls[d.CallID]
	if e == nil {
		summary := d.Summary
		if summary == "" {
			summary = d.Tool + " " + textfmt.ClipRunes(d.Args, 60)
		}
		e = &entry{kind: entryTool, turn: d.Turn, callID: d.CallID, summary: summary}
		t.calls[d.CallID] = e
		t.add(e)
	}
	if typ == messages.EventToolStarted {
		e.running = true
		t.phase = "tool " + e.summary
	}
}

func (t *transcript) toolFinished(d *messages.ToolFinishedData) {
	e := t.calls[d.CallID]
	if e == nil {
		e = &entry{kind: entryTool, turn: d.Turn, callID: d.CallID, summary: d.Tool}
		t.calls[d.CallID] = e
		t.add(e)
	}
	e.running, e.done, e.failed = false, true, d.IsError
	e.outcome = strings.TrimPrefix(strings.TrimPrefix(toolOutcome(d), "✓ "), "✗ ")
	e.output, e.bytes, e.ms = d.Output, d.Bytes, d.DurationMS
	e.diff = t.diffs[d.CallID]
	delete(t.diffs, d.CallID)
	t.phase = phaseThinking
	if userShell(d) { // the user's !command: its output is what they asked to see
		e.expanded, t.phase = true, ""
	}
}

// decision marks a refused call; an allowed one needs no line of its own.
func (t *transcript) decision(typ messages.EventType, d *messages.DecisionData) {
	if d.Decision == messages.DecisionAsked || d.Decision == messages.DecisionAllowed {
		return
	}
	if e := t.calls[d.CallID]; e != nil && !e.done {
		e.done, e.failed, e.outcome = true, true, string(d.Decision)+": "+firstLineOf(d.Reason)
		return
	}
	if typ == messages.EventToolRejected || d.Decision == messages.DecisionDenied {
		t.note("⊘ %s %s: %s", d.Tool, d.Decision, d.Reason)
	}
}

// closeOpen marks streamed entries complete: an answer is rendered as markdown from then on.
func (t *transcript) closeOpen() {
	for i := len(t.entries) - 1; i >= 0 && i >= len(t.entries)-2; i-- {
		t.entries[i].open = false
	}
}

// dropOpen removes the open entry of a kind: a failed attempt's text is superseded.
func (t *transcript) dropOpen(kind entryKind) {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if e := t.entries[i]; e.kind == kind && e.open {
			t.entries = append(t.entries[:i], t.entries[i+1:]...)
			return
		}
	}
}

// tools lists the tool entries, oldest first.
func (t *transcript) tools() []*entry {
	var out []*entry
	for _, e := range t.entries {
		if e.kind == entryTool {
			out = append(out, e)
		}
	}
	return out
}

// lastTool is the most recent tool entry, or nil.
func (t *transcript) lastTool() *entry {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if t.entries[i].kind == entryTool {
			return t.entries[i]
		}
	}
	return nil
}

// toolLine is the one-line form of a tool call: → summary, then ✓/✗ outcome, size and time.
func (e *entry) toolLine() string {
	switch {
	case e.done && e.failed:
		return fmt.Sprintf("→ %s  ✗ %s", e.summary, e.outcome)
	case e.done:
		return fmt.Sprintf("→ %s  ✓ %s", e.summary, e.outcome)
	case e.running:
		return fmt.Sprintf("→ %s  …", e.summary)
	}
	return fmt.Sprintf("→ %s", e.summary)
}

// detail is what an expanded tool call shows: its diff, or else its output.
func (e *entry) detail() string {
	if e.diff != "" {
		return e.diff
	}
	return e.output
}

// userShell reports whether a finished call is the user's own !command.
func userShell(d *messages.ToolFinishedData) bool {
	return strings.HasPrefix(d.CallID, messages.UserCallPrefix) && d.Tool == "bash"
}
