package actors

import (
	"fmt"
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
// projected result (childState.result, child.go) to its parent's inbox.

// reportToParent sends this child's projected result to its parent. A child in its own worktree
// commits it first: that git call runs in finish, on the stopping actor, because the result
// must be queued in the parent's mailbox before this actor's Terminated (see childStopped).
func (s *session) reportToParent(ctx actor.Context, out *messages.SessionFinishedData) {
	h := reportHeader{handle: s.cfg.handle(), session: s.cfg.ID, role: s.cfg.role.Name, lastAnswer: lastAnswer(s.items)}
	if s.meta != nil {
		h.usage = messages.AgentUsage{Turns: s.turn, InputTokens: s.meta.InputTokens, OutputTokens: s.meta.OutputTokens}
	}
	r := s.asChild.result(out, h)
	if r == nil {
		return
	}
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
		e := &store.Entry{Kind: store.KindAssistant, Text: m.Content, Reasoning: m.Reasoning, ReasoningBlocks: m.ReasoningBlocks, Model: m.Model}
		for _, c := range m.ToolCalls {
			e.Calls = append(e.Calls, store.Call{ID: c.ID, Name: c.Name, Args: c.Args})
		}
		return e
	case llm.RoleTool:
		return &store.Entry{Kind: store.KindToolResult, Text: m.Content, CallID: m.ToolCallID, ToolName: m.ToolName, IsError: m.IsError}
	}
	return &store.Entry{Kind: store.KindUser, Text: m.Content}
}
