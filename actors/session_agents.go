package actors

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// The parent's half of subagents (docs/ARCHITECTURE.md, "Subagents"): spawn_agent opens a child
// session under this one; its projected result comes back to this session's inbox; the model
// sees the projection, never the child's transcript.

// worktreeTimeout bounds creating a child's git worktree.
const worktreeTimeout = 2 * time.Minute

// onSpawnAgent validates a spawn request, prepares the child and starts it (or queues it
// behind the running ones), and answers with its handle. A child in its own worktree is
// answered once git has created it, off the actor (Receive never blocks on git).
func (s *session) onSpawnAgent(ctx actor.Context, req *messages.SpawnAgent) {
	var mine []string
	if s.deps.Tools != nil {
		mine = s.deps.Tools.Names()
	}
	c, notes, err := s.kids.prepare(req, childParent{cfg: &s.cfg, workspace: s.deps.Workspace, tools: mine,
		history: func() []llm.Message { return projectedHistory(s.items, s.cfg.limits.IdleGap) }})
	if err != nil {
		s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
		return
	}
	if !req.Worktree {
		s.admitChild(ctx, req, c, notes)
		return
	}
	root, task := s.kids.delegation.ProjectRoot, c.rec.Task
	type made struct {
		wt  *worktree.Worktree
		err error
	}
	offActor(ctx, worktreeTimeout, func() made { wt, err := worktree.Create(root, task); return made{wt, err} },
		func(m made, err error) {
			if err == nil {
				err = m.err
			}
			if err != nil {
				s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
				return
			}
			c.wt, c.rec.Worktree, c.start.Workspace, c.start.Worktree = m.wt, m.wt.Branch, m.wt.Path, m.wt.Name
			s.admitChild(ctx, req, c, notes)
		})
}

// admitChild records a prepared child, announces it, answers the spawn and starts or queues it.
func (s *session) admitChild(ctx actor.Context, req *messages.SpawnAgent, c *childAgent, notes []string) {
	if s.finished() || s.cur.cancelling != "" {
		s.respond(ctx, &messages.ErrorReply{Error: "the turn was cancelled before the agent could start"})
		return
	}
	s.kids.add(c)
	state := messages.AgentQueued
	if s.kids.running() < s.kids.delegation.Limits.MaxRunning {
		state = messages.AgentRunning
	}
	s.emit(messages.AgentSpawnedEvent.Of(&messages.AgentSpawnedData{Handle: c.rec.Handle, Session: c.rec.Session,
		Role: c.rec.Role, Context: contextMode(req.Context), Model: c.start.Model, State: state,
		Background: c.rec.Background, Worktree: c.rec.Worktree, Tools: c.start.Tools, Task: preview(req.Message, 200)}))
	s.respond(ctx, &messages.SpawnAccepted{Handle: c.rec.Handle, Session: c.rec.Session, State: state,
		Tools: c.start.Tools, Model: c.start.Model, Notes: notes})
	if state == messages.AgentRunning {
		s.startChild(ctx, c)
	} else {
		s.saveChild(c)
	}
}

func contextMode(m messages.ContextMode) messages.ContextMode {
	if m == "" {
		return messages.ContextFresh
	}
	return m
}

// startChild builds the child's dependencies and spawns it under this session. A child that
// cannot start ends at once with a failed result: the parent never hangs on it.
func (s *session) startChild(ctx actor.Context, c *childAgent) {
	c.rec.State = messages.AgentRunning
	c.began = time.Now()
	deps, err := s.kids.delegation.NewChild(c.start)
	if err != nil {
		s.saveChild(c)
		s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
			Status: messages.AgentFailed, Error: "the agent could not start: " + err.Error()})
		return
	}
	deps.Inherited, deps.Worktree, deps.ReportTo = c.inherited, c.wt, ctx.Self()
	c.inherited = nil
	pid, err := ctx.SpawnNamed(actor.PropsFromProducer(newSession(newSessionConfig(c.start), deps)), "agent-"+c.rec.Task)
	if err != nil {
		s.saveChild(c)
		s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
			Status: messages.AgentFailed, Error: fmt.Sprintf("spawn the agent: %v", err)})
		return
	}
	c.pid = pid // no Watch: the parent hears of the child's stop once, as its parent (see started)
	s.saveChild(c)
}

// startQueued starts queued children while there are free slots, in spawn order. It counts the
// running children once, and again only after starting one: counting them for every child in
// the list made each result cost O(children²) in the parent's actor.
func (s *session) startQueued(ctx actor.Context) {
	free := s.kids.delegation.Limits.MaxRunning - s.kids.running()
	for _, c := range s.kids.inOrder() {
		if free <= 0 || s.finished() {
			return
		}
		if c.rec.State == messages.AgentQueued {
			s.startChild(ctx, c)
			free = s.kids.delegation.Limits.MaxRunning - s.kids.running()
		}
	}
}

// onAgentResult records a child's projected result (it arrives on this session's inbox),
// announces it, wakes the waits it completes, starts queued children, and lets a turn that
// waited for it go on.
func (s *session) onAgentResult(ctx actor.Context, r *messages.AgentResult) {
	task := r.Handle[strings.LastIndexByte(r.Handle, '/')+1:]
	c := s.kids.get(task)
	if c == nil || c.rec.Session != r.Session || messages.AgentFinal(c.rec.State) {
		return // not ours, or already ended (a late duplicate)
	}
	if r.Usage.DurationMS == 0 && !c.began.IsZero() {
		r.Usage.DurationMS = time.Since(c.began).Milliseconds()
	}
	c.rec.State, c.rec.Result = r.Status, r
	s.saveChild(c)
	s.emit(messages.AgentFinishedEvent.Of(r))
	s.answerWaiters(ctx, false)
	s.startQueued(ctx)
	s.afterAgentsChanged(ctx)
}

// childStopped is a child's actor ending. Terminated is a system message and overtakes the
// mailbox, but the child's result (sent to this mailbox before it stopped) is already queued:
// childGone, queued now, comes after it. A child that ended without a result (it crashed for
// good) gets one written for it, so the parent never hangs; no timer decides that a slow
// result is lost.
func (s *session) childStopped(ctx actor.Context, who *actor.PID) bool {
	c := s.kids.byPID(who)
	if c == nil {
		return false
	}
	c.pid = nil
	if !messages.AgentFinal(c.rec.State) {
		ctx.Send(ctx.Self(), &childGone{task: c.rec.Task})
	}
	return true
}

func (s *session) onChildGone(ctx actor.Context, msg *childGone) {
	c := s.kids.get(msg.task)
	if c == nil || messages.AgentFinal(c.rec.State) {
		return
	}
	s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
		Status: messages.AgentInterrupted, Error: "the agent stopped without reporting a result"})
}

// saveChild stores a child's record; a failure is logged (the child still runs and reports).
func (s *session) saveChild(c *childAgent) {
	if err := s.deps.Store.PutAgentRecord(s.cfg.ID, c.rec.Task, &c.rec); err != nil {
		s.deps.Log.Warn("record subagent", "session", s.cfg.ID, "agent", c.rec.Handle, "err", err)
	}
}

// deliverResults puts the results that came in since the last model call into the context, as
// one note: the projection of each child, never its transcript.
func (s *session) deliverResults() error {
	ready := s.kids.undelivered()
	if len(ready) == 0 {
		return nil
	}
	parts := make([]string, 0, len(ready))
	for _, c := range ready {
		parts = append(parts, tools.FormatAgentResult(c.rec.Result))
	}
	if err := s.commit(noteEntry("Subagent results:\n\n" + strings.Join(parts, "\n\n"))); err != nil {
		return err
	}
	for _, c := range ready {
		c.rec.Result.Delivered = true
		s.saveChild(c)
	}
	return nil
}

// restoreChildren reloads the records of a resumed session's children: finished ones keep
// their results (delivered at the next call if the model has not seen them); ones that were
// still running when the session stopped are marked interrupted.
func (s *session) restoreChildren() error {
	var recs []agentRecord
	err := s.deps.Store.EachAgentRecord(s.cfg.ID, func(raw []byte) error {
		var r agentRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return fmt.Errorf("restore subagents: %w", err)
	}
	slices.SortFunc(recs, func(a, b agentRecord) int { return a.Spawned.Compare(b.Spawned) })
	for _, r := range recs {
		c := &childAgent{rec: r}
		if !messages.AgentFinal(r.State) {
			c.rec.State = messages.AgentInterrupted
			c.rec.Result = &messages.AgentResult{Handle: r.Handle, Session: r.Session, Role: r.Role,
				Status: messages.AgentInterrupted, Error: "the parent session stopped before this agent ended; its log is kept: troupe log " + r.Session}
			s.saveChild(c)
		}
		s.kids.add(c)
	}
	return nil
}
