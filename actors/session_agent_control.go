package actors

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// The session's answers to the agent tools that address running children (send_agent,
// cancel_agent; wait_agent and list_agents are the children's own, children_step.go): the
// children component keeps the records; the session forwards and stops.

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
	case c.remote:
		ctx.Send(s.kids.delegation.Dispatcher, &dispatchRoute{task: c.rec.Session, msg: &messages.SendAgent{Handle: c.rec.Handle, Message: req.Message}})
		s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State, Note: "sent to it on its worker"})
	default:
		if err := s.deps.Bridge.Send(c.rec.Session, &messages.SendAgent{Handle: c.rec.Handle, Message: req.Message}); err != nil {
			s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
			return
		}
		s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State})
	}
}
