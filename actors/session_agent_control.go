package actors

import (
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// The session's answers to the agent tools that address running children (wait_agent,
// send_agent, cancel_agent, list_agents): the children component keeps the records and the
// waits and says which are ready; the session replies, forwards and arms the timers.

// onWaitAgents answers wait_agent now if every named child has ended, else when they have or
// when the timeout passes.
func (s *session) onWaitAgents(ctx actor.Context, req *messages.WaitAgents) {
	var unknown []string
	for _, h := range req.Handles {
		if s.kids.byHandle(s.cfg.handle(), h) == nil {
			unknown = append(unknown, h)
		}
	}
	if len(unknown) > 0 {
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("unknown handle %s; your agents: %s",
			strings.Join(unknown, ", "), s.kids.handleList())})
		return
	}
	if ctx.Sender() == nil {
		return
	}
	w := s.kids.wait(ctx.Sender(), req.Handles)
	if s.answerWaiters(ctx, false) {
		return
	}
	id, self, root := w.id, ctx.Self(), ctx.ActorSystem().Root
	w.timer = time.AfterFunc(time.Duration(max(req.TimeoutS, 1))*time.Second, func() { root.Send(self, &waitExpired{id: id}) })
}

func (s *session) onWaitExpired(ctx actor.Context, msg *waitExpired) {
	if w := s.kids.expire(msg.id); w != nil {
		s.answerWaiter(ctx, w)
	}
}

// answerWaiters answers the waits whose children have all ended (all of them when force is
// set); it reports whether the newest wait was answered.
func (s *session) answerWaiters(ctx actor.Context, force bool) bool {
	ready, newest := s.kids.readyWaits(s.cfg.handle(), force)
	for _, w := range ready {
		s.answerWaiter(ctx, w)
	}
	return newest
}

func (s *session) answerWaiter(ctx actor.Context, w *agentWaiter) {
	if w.timer != nil {
		w.timer.Stop()
	}
	reply := &messages.WaitReply{}
	for _, h := range w.handles {
		c := s.kids.byHandle(s.cfg.handle(), h)
		if c == nil || !messages.AgentFinal(c.rec.State) {
			reply.Pending = append(reply.Pending, h)
			continue
		}
		reply.Results = append(reply.Results, c.rec.Result)
		if !c.rec.Result.Delivered {
			c.rec.Result.Delivered = true
			s.saveChild(c)
		}
	}
	ctx.Send(w.replyTo, reply)
}

// onSendAgent is either a message from this session's parent (the handle is ours: it becomes
// a note before our next model call) or send_agent from our model (forward it to the child).
func (s *session) onSendAgent(ctx actor.Context, req *messages.SendAgent) {
	if req.Handle == s.cfg.handle() && s.cfg.Parent != "" {
		s.asChild.note(req.Message)
		return
	}
	c := s.kids.byHandle(s.cfg.handle(), req.Handle)
	switch {
	case c == nil:
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("unknown handle %s; your agents: %s", req.Handle, s.kids.handleList())})
	case messages.AgentFinal(c.rec.State):
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("%s has already ended (%s); spawn a new agent to continue its work", c.rec.Handle, c.rec.State)})
	case c.rec.State == messages.AgentQueued:
		c.start.Task += "\n\nFollow-up from your parent:\n" + req.Message
		s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State, Note: "added to its task: it has not started yet"})
	default:
		if err := s.deps.Bridge.Send(c.rec.Session, &messages.SendAgent{Handle: c.rec.Handle, Message: req.Message}); err != nil {
			s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
			return
		}
		s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State})
	}
}

// onCancelAgent stops a child; stopping it stops every agent under it (they are its actor
// children), and each records itself as cancelled or interrupted.
func (s *session) onCancelAgent(ctx actor.Context, req *messages.CancelAgent) {
	c := s.kids.byHandle(s.cfg.handle(), req.Handle)
	if c == nil {
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("unknown handle %s; your agents: %s", req.Handle, s.kids.handleList())})
		return
	}
	if messages.AgentFinal(c.rec.State) {
		s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State, Note: "it had already ended"})
		return
	}
	reason := req.Reason
	if reason == "" {
		reason = "cancelled by its parent"
	}
	s.cancelChild(ctx, c, reason)
	s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: messages.AgentCancelled})
}

func (s *session) cancelChild(ctx actor.Context, c *childAgent, reason string) {
	if c.rec.State == messages.AgentQueued {
		c.rec.State = messages.AgentRunning // so the result below is taken
		s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
			Status: messages.AgentCancelled, Error: reason + " (before it started)"})
		return
	}
	if err := s.deps.Bridge.Send(c.rec.Session, &messages.Cancel{Reason: reason}); err != nil && c.pid != nil {
		ctx.Stop(c.pid)
	}
}

// cancelChildren cancels every child that has not ended (the parent's turn was cancelled).
func (s *session) cancelChildren(ctx actor.Context, reason string) {
	for _, c := range s.kids.unended() {
		s.cancelChild(ctx, c, reason)
	}
}

func (s *session) onListAgents(ctx actor.Context) {
	list := &messages.AgentList{Agents: make([]*messages.AgentInfo, 0, len(s.kids.order))}
	for _, c := range s.kids.inOrder() {
		info := &messages.AgentInfo{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role, State: c.rec.State,
			Background: c.rec.Background, Worktree: c.rec.Worktree}
		if c.rec.Result != nil {
			info.Turns, info.ElapsedMS = c.rec.Result.Usage.Turns, c.rec.Result.Usage.DurationMS
		} else if !c.began.IsZero() {
			info.ElapsedMS = time.Since(c.began).Milliseconds()
		}
		list.Agents = append(list.Agents, info)
	}
	s.respond(ctx, list)
}
