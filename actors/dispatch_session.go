package actors

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
)

// The parent session's half of remote children (docs/ARCHITECTURE.md "Subagents on workers"):
// a child is a SpawnTask wherever it runs. One the placement sends out goes to the Node's
// dispatcher; if the dispatcher cannot place it (no worker attached, no task queue) it starts
// here after all, as a protoactor child of this session.

// place decides whether a prepared child goes to the workers.
func (s *session) place(c *childAgent, req *messages.SpawnAgent) {
	d := s.kids.delegation
	c.place.localFree = s.kids.running() < d.Limits.MaxRunning
	if c.place.want() != placeRemote {
		return
	}
	if d.Dispatcher == nil {
		s.warnLocal(c, "this node dispatches to no workers")
		return
	}
	c.remote, c.rec.Remote = true, true
}

// warnLocal says, once per session, that a child meant for the workers runs here.
func (s *session) warnLocal(c *childAgent, why string) {
	if !c.place.strict() || s.kids.warnedLocal {
		return
	}
	s.kids.warnedLocal = true
	s.emit(messages.ErrorEvent.Of(&messages.ErrorData{Message: fmt.Sprintf(
		"placement is workers but %s runs on this node: %s (start one with troupe worker, or set [agents] placement = \"auto\")", c.rec.Handle, why)}))
}

// spawnTask is the child's start as it crosses the bus: its start request (the environment
// stays here: a worker uses its own) and the context slice it inherits.
func (s *session) spawnTask(c *childAgent) (*messages.SpawnTask, error) {
	t := *c.task // its Start is c.start, follow-ups and worktree included
	t.Project, t.Start.Env = s.deps.Bridge.NS(), nil
	if len(c.inherited) > 0 {
		data, err := json.Marshal(c.inherited)
		if err != nil {
			return nil, fmt.Errorf("encode the inherited context: %w", err)
		}
		if len(data) > messages.MaxInline {
			return nil, fmt.Errorf("its inherited context (%d bytes) is too large to send", len(data))
		}
		t.Inherited = &messages.Blob{Inline: data}
	}
	return &t, nil
}

// dispatchChild sends a remote child to the dispatcher; it answers with a dispatchOutcome.
func (s *session) dispatchChild(ctx actor.Context, c *childAgent) {
	c.rec.State = messages.AgentRunning
	c.began = time.Now()
	task, err := s.spawnTask(c)
	if err != nil {
		s.runHere(ctx, c, err.Error())
		return
	}
	s.saveChild(c)
	ctx.Send(s.kids.delegation.Dispatcher, &dispatchTask{task: task, parent: ctx.Self()})
}

// runHere starts a child meant for the workers on this node, or queues it for a local slot.
func (s *session) runHere(ctx actor.Context, c *childAgent, why string) {
	s.warnLocal(c, why)
	c.remote, c.rec.Remote = false, false
	if s.kids.running() >= s.kids.delegation.Limits.MaxRunning {
		c.rec.State = messages.AgentQueued
		s.saveChild(c)
		return
	}
	s.startChild(ctx, c, nil)
}

// onDispatched takes the dispatcher's news of a remote child: refused (it runs here), or
// placed on a worker (agent.spawned again, now running, with the worker's name).
func (s *session) onDispatched(ctx actor.Context, msg any) {
	switch m := msg.(type) {
	case *dispatchOutcome:
		c := s.kids.bySession(m.task)
		if c == nil || !c.remote || messages.AgentFinal(c.rec.State) || m.refused == "" {
			return
		}
		if s.finished() {
			s.takeKidsStep(ctx, s.kids.result(s.cfg.handle(), failedToStart(c, "the session ended before the agent could start"), time.Now()))
			return
		}
		s.runHere(ctx, c, m.refused)
	case *childPlaced:
		c := s.kids.bySession(m.task)
		if c == nil || !c.remote || messages.AgentFinal(c.rec.State) {
			return
		}
		c.rec.Worker = m.worker
		s.saveChild(c)
		s.emit(messages.AgentSpawnedEvent.Of(&messages.AgentSpawnedData{Handle: c.rec.Handle, Session: c.rec.Session,
			Role: c.rec.Role, Context: messages.ContextFresh, Model: s.childModel(c), State: messages.AgentRunning,
			Background: c.rec.Background, Worker: m.worker}))
	}
}

func (s *session) childModel(c *childAgent) string {
	if c.start != nil {
		return c.start.Model
	}
	return ""
}

// adoptRemoteChildren hands a resumed session's remote children that may still run back to
// the dispatcher: it follows their leases again and forwards their results.
func (s *session) adoptRemoteChildren(ctx actor.Context) {
	adopt := s.kids.adopting
	s.kids.adopting = nil
	for _, c := range adopt {
		ctx.Send(s.kids.delegation.Dispatcher, &dispatchAdopt{task: c.rec.Session, handle: c.rec.Handle, role: c.rec.Role,
			worker: c.rec.Worker, parent: ctx.Self(), parentID: s.cfg.ID})
	}
}

// remoteModeChanged passes the parent's new mode to its remote children, each within its role's
// mode (a local child keeps the mode it started with, as before).
func (s *session) remoteModeChanged(ctx actor.Context) {
	for _, c := range s.kids.unended() {
		if c.remote && c.start != nil {
			mode := messages.Mode(config.StricterMode(string(s.cfg.Mode), c.roleMode))
			ctx.Send(s.kids.delegation.Dispatcher, &dispatchRoute{task: c.rec.Session, msg: &messages.SetMode{Mode: mode, By: "parent " + s.cfg.handle()}})
		}
	}
}

// remoteAllowlistGrew passes the patterns this session's allowlist gained to its remote
// children (a local child's gate is built with the list when it starts).
func (s *session) remoteAllowlistGrew(ctx actor.Context, patterns []string) {
	if len(patterns) <= len(s.kids.allowlist) || s.kids.delegation == nil || s.kids.delegation.Dispatcher == nil {
		return
	}
	for _, c := range s.kids.unended() {
		if c.remote {
			ctx.Send(s.kids.delegation.Dispatcher, &dispatchRoute{task: c.rec.Session, msg: &messages.SessionAllowlist{Patterns: slices.Clone(patterns)}})
		}
	}
}
