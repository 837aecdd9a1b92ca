package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/tools/textcall"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// Printer renders one session's events: NDJSON envelopes verbatim, or for people the streamed
// answer and one line per tool call.
type Printer struct {
	mu      sync.Mutex
	w       io.Writer
	json    bool
	midLine bool // the last thing written was streamed text without a newline
	// denied holds the calls whose denial was printed in full: their tool.finished, which
	// repeats the reason, is left out so each denial is printed once.
	denied map[string]bool
	asks   bool // print approval requests (a client that does not answer them itself)
	// family is the followed session and its subagents known so far (FollowSubagents).
	family map[string]bool
	root   string
	// held is streamed text not printed yet because it may be a call written as text
	// (textcall.HoldFrom); holding says a whole marker token is in it. A text_format repair
	// drops it (its line shows the call that runs); any other event prints it as it came.
	held    string
	holding bool
}

// NewPrinter prints to w: the envelopes verbatim with json, for people without.
func NewPrinter(w io.Writer, json bool) *Printer { return &Printer{w: w, json: json} }

// WithApprovals makes the printer show approval requests with how to answer them, for a client
// that follows a session without answering (troupe attach).
func (p *Printer) WithApprovals() *Printer { p.asks = true; return p }

// ApprovalWaiting is the line saying a call waits for an answer and how to give it; session
// names a subagent's session ("" for the followed one).
func ApprovalWaiting(a *messages.ApprovalRequestedData, session string) string {
	line := fmt.Sprintf("  ? %s waits for approval: %s", a.CallID, ApprovalLine(a.Summary))
	if a.Reason != "" {
		line += " (" + firstLineOf(a.Reason) + ")"
	}
	how := "troupe approve "
	if session != "" {
		how += "--session " + session + " "
	}
	return line + "; answer with " + how + a.CallID + " allow|deny|allow-session"
}

// FollowSubagents makes the printer show the approval requests of root's subagents too, fed
// the project's envelopes through SubagentEvent.
func (p *Printer) FollowSubagents(root string) { p.family, p.root = map[string]bool{root: true}, root }

// SubagentEvent takes one envelope of the project: a subagent of the followed session (its
// parent known) joins the family, and an approval request of one is printed with its handle.
func (p *Printer) SubagentEvent(data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var env messages.Envelope
	if p.family == nil || p.json || json.Unmarshal(data, &env) != nil {
		return
	}
	if env.Parent != "" && p.family[env.Parent] {
		p.family[env.Session] = true
	}
	if env.Type != messages.EventToolApproval || env.Session == p.root || !p.family[env.Session] {
		return
	}
	if v, err := env.DecodeData(); err == nil {
		p.endLine()
		fmt.Fprintf(p.w, "%s (%s)\n", ApprovalWaiting(v.(*messages.ApprovalRequestedData), env.Session), env.Agent)
	}
}

// Event prints one raw envelope and returns the outcome when it is session.finished.
func (p *Printer) Event(data []byte) *messages.SessionFinishedData {
	p.mu.Lock()
	defer p.mu.Unlock()
	var env messages.Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil
	}
	if p.json {
		p.w.Write(data)
		p.w.Write([]byte("\n"))
	}
	v, err := env.DecodeData()
	if err != nil {
		return nil
	}
	if fin, ok := v.(*messages.SessionFinishedData); ok {
		if !p.json {
			p.settleHeld(v)
			p.endLine()
		}
		return fin
	}
	if !p.json {
		p.settleHeld(v)
		p.human(env.Type, v)
	}
	return nil
}

// streamText prints a text delta up to where it may start a call written as text, and holds
// the rest until the next event settles it.
func (p *Printer) streamText(text string) {
	text = p.held + text
	at := 0 // holding a marker: all of it waits
	if !p.holding {
		at, p.holding = textcall.HoldFrom(text)
	}
	if at > 0 {
		fmt.Fprint(p.w, text[:at])
		p.midLine = !strings.HasSuffix(text[:at], "\n")
	}
	p.held = text[at:]
}

// settleHeld decides held text at the next event: a call repaired from the reply's text is
// shown by its repair line, so the markup it came from goes; anything else prints it.
func (p *Printer) settleHeld(v any) {
	if p.held == "" {
		return
	}
	switch v.(type) {
	case *messages.DeltaData, *messages.UsageData, *messages.WireQuirkData:
		return // the same reply still streaming or being read: the repair comes after these
	}
	if r, ok := v.(*messages.ToolRepairedData); ok && p.holding && r.Kind == string(tools.RepairTextFormat) {
		p.held, p.holding = "", false
		return
	}
	held := p.held
	p.held, p.holding = "", false
	fmt.Fprint(p.w, held)
	p.midLine = !strings.HasSuffix(held, "\n")
}

func (p *Printer) human(t messages.EventType, v any) {
	switch d := v.(type) {
	case *messages.DeltaData:
		if t == messages.EventTextDelta {
			p.streamText(d.Text)
		}
	case *messages.ToolCallData:
		if t == messages.EventToolStarted {
			p.endLine()
			fmt.Fprintf(p.w, "→ %s\n", d.Summary)
		}
	case *messages.ToolFinishedData:
		if p.denied[d.CallID] {
			delete(p.denied, d.CallID)
			break
		}
		p.endLine()
		if userShell(d) { // the user's !command: its output, as the event carries it
			p.shellOutput(d)
			break
		}
		fmt.Fprintf(p.w, "  %s\n", toolOutcome(d))
	case *messages.ToolRepairedData:
		p.endLine()
		fmt.Fprintf(p.w, "  ↻ repaired %s: %s → %s\n", strings.ReplaceAll(d.Kind, "_", " "), textfmt.ClipLine(d.Before, 60), textfmt.ClipLine(d.After, 80))
	case *messages.ModelRetryData:
		p.endLine()
		fmt.Fprintf(p.w, "  model call failed (%s); retry %d in %dms\n", firstLineOf(d.Reason), d.Attempt, d.DelayMS)
	case *messages.ErrorData:
		if d.Fatal {
			break // the session's outcome says it, once, on stderr
		}
		p.endLine()
		fmt.Fprintf(p.w, "  error: %s\n", d.Message)
	case *messages.ApprovalRequestedData:
		if p.asks {
			p.endLine()
			fmt.Fprintln(p.w, ApprovalWaiting(d, ""))
		}
	case *messages.DecisionData:
		if d.Decision == messages.DecisionDenied {
			// In full: a denial says how to allow the call, which the user needs to see.
			p.endLine()
			fmt.Fprintf(p.w, "  ⊘ %s\n", d.Reason)
			if p.denied == nil {
				p.denied = map[string]bool{}
			}
			p.denied[d.CallID] = true
		}
	case *messages.AgentSpawnedData:
		p.endLine()
		fmt.Fprintf(p.w, "  ⤷ %s (%s, %s): %s\n", d.Handle, d.Role, d.State, firstLineOf(d.Task))
	case *messages.AgentResult:
		p.endLine()
		line := string(d.Status)
		if d.Verdict != "" {
			line += ", verdict " + d.Verdict
		}
		fmt.Fprintf(p.w, "  ⤶ %s %s: %s\n", d.Handle, line, firstLineOf(d.Summary+d.Error))
	case *messages.ContextCompactedData:
		p.endLine()
		kind := "summary"
		if d.Mechanical {
			kind = "mechanical summary"
		}
		fmt.Fprintf(p.w, "  context compacted (%s, %s): entries %d–%d, %d → %d tokens\n", d.Reason, kind, d.FromSeq, d.ToSeq, d.TokensBefore, d.TokensAfter)
	case *messages.MCPToolsChangedData:
		p.endLine()
		fmt.Fprintf(p.w, "  mcp server %s changed its tools: %s\n", d.Server, mcpChange(d))
	case *messages.GoalUpdatedData:
		p.endLine()
		fmt.Fprintf(p.w, "  goal %s by %s: %s\n", d.Status, d.By, d.Objective)
	case *messages.DoneCheckData:
		p.endLine()
		if !d.Passed {
			why := firstLineOf(d.Output)
			if why == "" && d.Kind == messages.DoneCheckGoal {
				why = "the goal is still open: it must be completed with evidence"
			}
			fmt.Fprintf(p.w, "  not done yet (%s check, refusal %d of %d): %s\n", d.Kind, d.Refusals, d.Max, why)
		} else {
			fmt.Fprintf(p.w, "  ✓ check passed: %s\n", d.Command)
		}
	case *messages.LessonStoredData:
		p.endLine()
		fmt.Fprintf(p.w, "  %s\n", LessonStoredLine(d))
	case *messages.LessonsGivenData:
		p.endLine()
		fmt.Fprintf(p.w, "  %s from earlier sessions given (%s): %s\n", textfmt.Count(len(d.IDs), "lesson"), d.Cause, strings.Join(d.IDs, " "))
	case *messages.TurnFinishedData:
		p.endLine()
	case *messages.HookFinishedData:
		if line := hookLine(d); line != "" {
			p.endLine()
			fmt.Fprintf(p.w, "  %s\n", line)
		}
	}
}

func (p *Printer) endLine() {
	if p.midLine {
		fmt.Fprintln(p.w)
		p.midLine = false
	}
}

// LessonStoredLine is how a run reports a lesson it stored: a new one is learnt; one the project
// already held (same trap) is met again, its count and fix updated, not a second lesson.
func LessonStoredLine(d *messages.LessonStoredData) string {
	failed, fixed := textfmt.Clip(firstLineOf(d.Failed), 100), textfmt.Clip(firstLineOf(d.Fixed), 100)
	if d.Relearnt {
		return fmt.Sprintf("lesson %s met again (already known; seen once more): %s — fix: %s", d.ID, failed, fixed)
	}
	return fmt.Sprintf("learnt lesson %s: %s — fix: %s", d.ID, failed, fixed)
}

// toolOutcome is "✓ …" or "✗ …" with the first line of the result.
func toolOutcome(d *messages.ToolFinishedData) string {
	mark := "✓"
	if d.IsError {
		mark = "✗"
	}
	out := tools.WithoutRepairNote(d.Output)
	line := firstLineOf(out)
	if numberedLine.MatchString(line) {
		line = textfmt.Count(strings.Count(strings.TrimRight(out, "\n"), "\n")+1, "line")
	}
	line = textfmt.Clip(line, 100)
	return fmt.Sprintf("%s %s (%s, %dms)", mark, line, textfmt.Count(d.Bytes, "byte"), d.DurationMS)
}

// numberedLine matches the first line of read_file output ("     1\tpackage main").
var numberedLine = lazyre.New(`^\s*\d+\t`)

func firstLineOf(s string) string { return textfmt.FirstLine(s) }

// decisionLine is the one-line form of a permission decision; plain allows are left out.
func decisionLine(d *messages.DecisionData) string {
	switch d.Decision {
	case messages.DecisionAllowed:
		return fmt.Sprintf("  ✓ %s %s allowed: %s", d.CallID, d.Tool, firstLineOf(d.Reason))
	case messages.DecisionAsked:
		return ""
	}
	return fmt.Sprintf("  ⊘ %s %s %s: %s", d.CallID, d.Tool, d.Decision, firstLineOf(d.Reason))
}

// ApprovalLine is the short form of an approval summary: tool, operation, path or command.
func ApprovalLine(s messages.ApprovalSummary) string {
	out := s.Tool
	if s.Operation != "" {
		out += " " + s.Operation
	}
	if s.Path != "" {
		out += " " + s.Path
	}
	if s.Command != "" {
		out += " $ " + textfmt.ClipLine(s.Command, 120)
	}
	return out
}

// shellOutput prints the output of the user's !command and, if it was cut for the event, how
// much more the model got.
func (p *Printer) shellOutput(d *messages.ToolFinishedData) {
	out := strings.TrimRight(d.Output, "\n")
	if out != "" {
		fmt.Fprintln(p.w, out)
	}
	mark := "✓"
	if d.IsError {
		mark = "✗"
	}
	fmt.Fprintf(p.w, "  %s %s, %dms (the output is in the context as your note)\n", mark, textfmt.Count(d.Bytes, "byte"), d.DurationMS)
}

// mcpChange says what an mcp.tools_changed event changed, in one line.
func mcpChange(d *messages.MCPToolsChangedData) string {
	if d.Error != "" {
		return d.Error
	}
	var parts []string
	if len(d.Added) > 0 {
		parts = append(parts, "added "+strings.Join(d.Added, ", "))
	}
	if len(d.Removed) > 0 {
		parts = append(parts, "removed "+strings.Join(d.Removed, ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "the same names")
	}
	return fmt.Sprintf("%s (%d tools from the next turn)", strings.Join(parts, "; "), d.Tools)
}
