package actors

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// The child's half of subagents: a subagent is a Session like any other, started by its parent
// with a role, scoped tools, an inherited context slice and a budget. When it ends it sends its
// projected result to its parent's inbox.

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
func (s *session) track(call llm.ToolCall, res *messages.ToolResult) {
	for _, p := range res.Changed {
		if !slices.Contains(s.asChild.trail.changed, p) && len(s.asChild.trail.changed) < maxFilesInResult {
			s.asChild.trail.changed = append(s.asChild.trail.changed, p)
		}
	}
	if call.Name != "bash" || len(s.asChild.trail.evidence) >= maxEvidence {
		return
	}
	var args struct {
		Command string `json:"command"`
	}
	if json.Unmarshal([]byte(call.Args), &args) != nil || args.Command == "" {
		return
	}
	s.asChild.trail.evidence = append(s.asChild.trail.evidence, messages.Evidence{
		Command: preview(firstLine(args.Command), maxEvidenceLine), Outcome: commandOutcome(res)})
}

var exitCodeLine = regexp.MustCompile(`\[exit code (\d+)\]`)

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

var fileRef = regexp.MustCompile(`[A-Za-z0-9_./-]+\.[A-Za-z0-9]+:\d+`)

var verdictLine = regexp.MustCompile(`(?im)^\W*verdict\W*:?\s*\**\s*(pass|fail)\b`)

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
func (s *session) needsVerdict(text string) bool {
	if !s.cfg.role.Verdict || verdictOf(text) != "" || s.asChild.verdictNudges >= maxVerdictNudges {
		return false
	}
	s.asChild.verdictNudges++
	return true
}

// reportToParent sends this child's projected result to its parent. A child in its own worktree
// commits it first: that git call runs in finish, on the stopping actor, because the result
// must be queued in the parent's mailbox before this actor's Terminated (see childStopped).
func (s *session) reportToParent(ctx actor.Context, out *messages.SessionFinishedData) {
	if s.cfg.Parent == "" || s.asChild.reported {
		return
	}
	s.asChild.reported = true
	r := &messages.AgentResult{Handle: s.cfg.handle(), Session: s.cfg.ID, Role: s.cfg.role.Name,
		Status: agentStatus(out, s.asChild.cancelRequested), Summary: preview(strings.TrimSpace(out.Final), maxResultSummary),
		Error: out.Error, Evidence: s.asChild.trail.evidence, FilesChanged: s.asChild.trail.changed}
	if r.Summary == "" && out.Status != messages.StatusDone {
		r.Summary = preview(strings.TrimSpace(s.lastAnswer()), maxResultSummary)
	}
	for _, ref := range uniqueRefs(out.Final) {
		r.Evidence = append(r.Evidence, messages.Evidence{Ref: ref})
	}
	if s.cfg.role.Verdict {
		r.Verdict = verdictOf(out.Final)
		if r.Verdict == "" {
			r.Verdict = "fail"
			if r.Error == "" {
				r.Error = "the verifier gave no verdict: counted as fail"
			}
		}
	}
	if s.meta != nil {
		r.Usage = messages.AgentUsage{Turns: s.turn, InputTokens: s.meta.InputTokens, OutputTokens: s.meta.OutputTokens}
	}
	r.Usage.DurationMS = time.Since(s.asChild.began).Milliseconds()
	if wt := s.deps.Worktree; wt != nil {
		stat, err := wt.Finish("troupe: " + s.cfg.handle())
		r.Branch, r.DiffStat = wt.Branch, stat
		if err != nil {
			r.Error = strings.TrimSpace(r.Error + "; commit the worktree: " + err.Error())
		}
	}
	if s.deps.ReportTo != nil {
		// The parent's mailbox, not the bus: this send is queued before the Terminated of
		// this actor, so the parent always reads the result before it learns the child is gone.
		ctx.Send(s.deps.ReportTo, r)
		return
	}
	if err := s.deps.Bridge.Send(s.cfg.Parent, r); err != nil {
		s.deps.Log.Error("report to parent", "session", s.cfg.ID, "parent", s.cfg.Parent, "err", err)
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

// armWallBudget starts the child's wall-time budget.
func (s *session) armWallBudget(ctx actor.Context) {
	if s.cfg.limits.MaxWall <= 0 {
		return
	}
	self, root := ctx.Self(), ctx.ActorSystem().Root
	s.asChild.wallTimer = time.AfterFunc(s.cfg.limits.MaxWall, func() { root.Send(self, &wallBudgetExpired{}) })
}

func (s *session) onWallBudget(ctx actor.Context) {
	if s.finished() {
		return
	}
	if s.cur.cancelWork != nil {
		s.cur.cancelWork()
	}
	s.fail(ctx, messages.FailBudget, fmt.Sprintf("wall-time budget exhausted: %ds", int(s.cfg.limits.MaxWall/time.Second)))
}

// overTokenBudget reports whether the session spent its token budget.
func (s *session) overTokenBudget() bool {
	return s.cfg.limits.MaxTokens > 0 && s.meta != nil && s.meta.InputTokens+s.meta.OutputTokens > s.cfg.limits.MaxTokens
}

// deliverParentNotes puts the parent's follow-up messages into the context.
func (s *session) deliverParentNotes() error {
	if len(s.asChild.parentNotes) == 0 {
		return nil
	}
	text := "Message from your parent:\n" + strings.Join(s.asChild.parentNotes, "\n\n")
	s.asChild.parentNotes = nil
	return s.commitNote(text)
}

// commitInherited writes the context slice a child inherits at the head of its new log, so
// resume and `troupe log` see what it saw.
func (s *session) commitInherited() error {
	if len(s.deps.Inherited) == 0 {
		return nil
	}
	entries := make([]*store.Entry, 0, len(s.deps.Inherited))
	now := time.Now().UTC()
	for _, m := range s.deps.Inherited {
		e := messageToEntry(m)
		e.Time = now
		entries = append(entries, e)
	}
	if err := s.deps.Store.Append(s.cfg.ID, entries...); err != nil {
		return fmt.Errorf("record the inherited context: %w", err)
	}
	for i, m := range s.deps.Inherited {
		s.items = append(s.items, projection.Item{Seq: entries[i].Seq, Time: now, Msg: m})
	}
	return nil
}

// messageToEntry is the inverse of entryToMessage.
func messageToEntry(m llm.Message) *store.Entry {
	switch m.Role {
	case llm.RoleAssistant:
		e := &store.Entry{Kind: store.KindAssistant, Text: m.Content, Reasoning: m.Reasoning, Model: m.Model}
		for _, c := range m.ToolCalls {
			e.Calls = append(e.Calls, store.Call{ID: c.ID, Name: c.Name, Args: c.Args})
		}
		return e
	case llm.RoleTool:
		return &store.Entry{Kind: store.KindToolResult, Text: m.Content, CallID: m.ToolCallID, ToolName: m.ToolName, IsError: m.IsError}
	}
	return &store.Entry{Kind: store.KindUser, Text: m.Content}
}
