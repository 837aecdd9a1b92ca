package actors

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// The child report: what a session that is a subagent gathers as it works and the projected
// result it sends its parent when it ends (the parent reads the projection, never the child's
// transcript). childState decides; the session sends (session_child.go).

// childState is what a session that is a subagent keeps for its report to the parent.
type childState struct {
	hasParent, verdict bool // set at start: it reports to a parent; its role owes a verdict
	began              time.Time
	trail              childTrail
	parentNotes        []string // messages from the parent, delivered before the next model call
	verdictNudges      int
	cancelRequested    bool          // the parent (or a client) asked it to stop: its outcome is "cancelled"
	reported           bool          // its result went to the parent: it is reported once
	wall               time.Duration // the wall-time budget (0: none)
	wallTimer          *time.Timer
}

// Bounds of a projected result.
const (
	maxEvidence       = 20
	maxEvidenceLine   = 200
	maxResultSummary  = 8 << 10
	maxVerdictNudges  = 2
	maxFilesInResult  = 50
	maxRefsInEvidence = 10
)

// childTrail is what a child gathers for its result as it works: commands and their
// outcomes, files it changed.
type childTrail struct {
	evidence []messages.Evidence
	changed  []string
}

// track records a committed tool result for the child's projected result.
func (t *childTrail) track(call llm.ToolCall, res *messages.ToolResult) {
	for _, p := range res.Changed {
		if !slices.Contains(t.changed, p) && len(t.changed) < maxFilesInResult {
			t.changed = append(t.changed, p)
		}
	}
	if call.Name != "bash" || len(t.evidence) >= maxEvidence {
		return
	}
	var args struct {
		Command string `json:"command"`
	}
	if json.Unmarshal([]byte(call.Args), &args) != nil || args.Command == "" {
		return
	}
	t.evidence = append(t.evidence, messages.Evidence{
		Command: preview(firstLine(args.Command), maxEvidenceLine), Outcome: commandOutcome(res)})
}

var exitCodeLine = lazyre.New(`\[exit code (\d+)\]`)

// commandOutcome is "ok" for a command that succeeded, else its exit code and first line.
func commandOutcome(res *messages.ToolResult) string {
	if !res.IsError {
		return "ok"
	}
	line := preview(firstLine(res.Output), maxEvidenceLine)
	if m := exitCodeLine.FindStringSubmatch(res.Output); m != nil {
		return "exit " + m[1] + ": " + line
	}
	return "error: " + line
}

var fileRef = lazyre.New(`[A-Za-z0-9_./-]+\.[A-Za-z0-9]+:\d+`)

var verdictLine = lazyre.New(`(?im)^\W*verdict\W*:?\s*\**\s*(pass|fail)\b`)

// verdictOf finds the last "VERDICT: pass|fail" line of a final answer.
func verdictOf(text string) string {
	m := verdictLine.FindAllStringSubmatch(text, -1)
	if len(m) == 0 {
		return ""
	}
	return strings.ToLower(m[len(m)-1][1])
}

// needsVerdict reports whether a final answer must be refused because the role owes a verdict
// it did not give; the model is told what is missing (a bounded number of times).
func (c *childState) needsVerdict(text string) bool {
	if !c.verdict || verdictOf(text) != "" || c.verdictNudges >= maxVerdictNudges {
		return false
	}
	c.verdictNudges++
	return true
}

// reportHeader is who reports: the child's handle, session and role, and what it spent.
type reportHeader struct {
	handle, session, role string
	usage                 messages.AgentUsage
	// lastAnswer stands in for the summary of a run that ended without a final answer.
	lastAnswer string
}

// result is the child's projected result for its parent, once, for the outcome out; nil when
// it was reported already or has no parent.
func (c *childState) result(out *messages.SessionFinishedData, h reportHeader) *messages.AgentResult {
	if !c.hasParent || c.reported {
		return nil
	}
	c.reported = true
	r := &messages.AgentResult{Handle: h.handle, Session: h.session, Role: h.role,
		Status: agentStatus(out, c.cancelRequested), Summary: preview(strings.TrimSpace(out.Final), maxResultSummary),
		Error: out.Error, Evidence: c.trail.evidence, FilesChanged: c.trail.changed, Usage: h.usage}
	if r.Summary == "" && out.Status != messages.StatusDone {
		r.Summary = preview(strings.TrimSpace(h.lastAnswer), maxResultSummary)
	}
	for _, ref := range uniqueRefs(out.Final) {
		r.Evidence = append(r.Evidence, messages.Evidence{Ref: ref})
	}
	if c.verdict {
		r.Verdict = verdictOf(out.Final)
		if r.Verdict == "" {
			r.Verdict = "fail"
			if r.Error == "" {
				r.Error = "the verifier gave no verdict: counted as fail"
			}
		}
	}
	r.Usage.DurationMS = time.Since(c.began).Milliseconds()
	return r
}

// note queues a message from the parent, delivered before the next model call.
func (c *childState) note(text string) { c.parentNotes = append(c.parentNotes, text) }

// takeNotes is the parent's queued messages as one note for the model ("" when none).
func (c *childState) takeNotes() string {
	if len(c.parentNotes) == 0 {
		return ""
	}
	text := "Message from your parent:\n" + strings.Join(c.parentNotes, "\n\n")
	c.parentNotes = nil
	return text
}

// armWall starts the wall-time budget: expire runs (on the timer's goroutine: it must only
// send) once it is spent.
func (c *childState) armWall(budget time.Duration, expire func()) {
	c.wall = budget
	if budget > 0 {
		c.wallTimer = time.AfterFunc(budget, expire)
	}
}

// wallSpent decides on the wall-time budget's end: the run fails, unless it already finished.
func (c *childState) wallSpent(finished bool) turnStep {
	if finished {
		return turnStep{next: turnStays}
	}
	return turnStep{next: turnFails, fail: messages.FailBudget, reason: fmt.Sprintf("wall-time budget exhausted: %ds", int(c.wall/time.Second))}
}

// stopWall stops the wall-time budget's timer.
func (c *childState) stopWall() {
	if c.wallTimer != nil {
		c.wallTimer.Stop()
	}
}

func uniqueRefs(text string) []string {
	var out []string
	for _, m := range fileRef.FindAllString(text, -1) {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
		if len(out) == maxRefsInEvidence {
			break
		}
	}
	return out
}

// agentStatus maps how a child session finished to its result's status.
func agentStatus(out *messages.SessionFinishedData, cancelled bool) messages.AgentState {
	switch {
	case out.Status == messages.StatusDone:
		return messages.AgentDone
	case out.Status == messages.StatusFailed && out.Kind == messages.FailBudget:
		return messages.AgentBudget
	case out.Status == messages.StatusFailed:
		return messages.AgentFailed
	case cancelled:
		return messages.AgentCancelled
	}
	return messages.AgentInterrupted
}
