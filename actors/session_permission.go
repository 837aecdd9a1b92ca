package actors

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// The session's half of permissions: its tool executor decides each call and, when it must ask,
// the session publishes the request and takes the answer from any bus client on its control
// subject. Every decision is an event and a log entry (the audit trail `troupe log` shows).

// onApprovalNeeded publishes an approval request and remembers it until it is answered.
func (s *session) onApprovalNeeded(msg *messages.ApprovalNeeded) {
	if msg.Turn != s.turn || !s.isPending(msg.CallID) {
		return
	}
	ask := &messages.ApprovalRequestedData{Turn: msg.Turn, CallID: msg.CallID, Reason: msg.Reason, Summary: msg.Summary}
	s.awaiting = append(s.awaiting, ask)
	s.emit(messages.EventToolApproval, ask)
}

// onApprove takes an answer from a client and hands it to the executor.
func (s *session) onApprove(ctx actor.Context, msg *messages.Approve) {
	i := slices.IndexFunc(s.awaiting, func(a *messages.ApprovalRequestedData) bool { return a.CallID == msg.CallID })
	switch {
	case i < 0:
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("no approval is pending for call %q in session %s", msg.CallID, s.start.ID)})
		return
	case msg.Answer != messages.AnswerAllow && msg.Answer != messages.AnswerDeny && msg.Answer != messages.AnswerAllowSession:
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("answer %q: use allow, deny or allow-session", msg.Answer)})
		return
	}
	if err := s.deps.Bridge.Send(s.toolAddr, &messages.ApprovalAnswer{CallID: msg.CallID, Answer: msg.Answer, By: msg.By}); err != nil {
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("deliver the answer: %v", err)})
		return
	}
	s.awaiting = slices.Delete(s.awaiting, i, i+1)
	s.respond(ctx, &messages.ApproveAck{CallID: msg.CallID, Answer: msg.Answer})
}

// onToolDecision records what the executor decided about a call.
func (s *session) onToolDecision(msg *messages.ToolDecision) {
	if msg.Turn != s.turn {
		return
	}
	t := messages.EventToolDecision
	if msg.Decision == messages.DecisionRejected || msg.Decision == messages.DecisionDenied {
		t = messages.EventToolRejected
	}
	d := &messages.DecisionData{Turn: msg.Turn, CallID: msg.CallID, Tool: msg.Tool, Decision: msg.Decision, Reason: msg.Reason}
	s.emit(t, d)
	s.audit(string(t), msg.CallID, msg.Tool, d)
}

// onSetMode switches the permission mode for the rest of the session.
func (s *session) onSetMode(ctx actor.Context, msg *messages.SetMode) {
	if !validMode(msg.Mode) {
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("mode %q: use plan, ask, auto-edit or yolo", msg.Mode)})
		return
	}
	if err := s.deps.Bridge.Send(s.toolAddr, msg); err != nil {
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("switch mode: %v", err)})
		return
	}
	s.start.Mode = msg.Mode
	s.emit(messages.EventSessionMode, &messages.ModeData{Mode: msg.Mode})
	s.audit(string(messages.EventSessionMode), "", "", &messages.ModeData{Mode: msg.Mode})
	s.respond(ctx, s.status())
}

// audit appends an audit-only entry: the model never sees it; `troupe log` does.
func (s *session) audit(event, callID, tool string, data any) {
	raw, _ := json.Marshal(data)
	e := &store.Entry{Kind: store.EntryKind("system"), Event: event, CallID: callID, ToolName: tool, Data: raw}
	if err := s.deps.Store.Append(s.start.ID, e); err != nil {
		s.deps.Log.Warn("record audit entry", "session", s.start.ID, "event", event, "err", err)
	}
}

func (s *session) respond(ctx actor.Context, msg any) {
	if ctx.Sender() != nil {
		ctx.Respond(msg)
	}
}

func validMode(m string) bool {
	switch m {
	case "plan", "ask", "auto-edit", "yolo":
		return true
	}
	return false
}
