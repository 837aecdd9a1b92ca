package actors

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// The session's half of permissions: its tool executor decides each call and, when it must ask,
// the session publishes the request and takes the answer from any bus client on its control
// subject. Every decision is an event and a log entry (the audit trail `troupe log` shows).

// switchMode decides a switch of the permission mode for the rest of the session: the new mode
// goes to the executor (the only one that applies it), and who switched is an event and an
// audit entry. A mode that does not exist changes nothing.
func (c *sessionConfig) switchMode(msg *messages.SetMode) (turnStep, error) {
	if !validMode(msg.Mode) {
		return turnStep{next: turnStays}, fmt.Errorf("mode %q: use plan, ask, auto-edit or yolo", msg.Mode)
	}
	c.Mode = msg.Mode
	p := messages.SessionModeEvent.Of(&messages.ModeData{Mode: msg.Mode, By: msg.By})
	return turnStep{tell: msg, emit: []messages.Payload{p}, audit: []auditRecord{{event: p.EventType(), data: p.Data()}}, next: turnStays}, nil
}

// replyTo is the answer to a request that changed the session: its error, or ok.
func replyTo(err error, ok any) any {
	if err != nil {
		return &messages.ErrorReply{Error: err.Error()}
	}
	return ok
}

// audit appends an audit-only entry: the model never sees it; `troupe log` does.
func (s *session) audit(event messages.EventType, callID, tool string, data any) {
	raw, _ := messages.MarshalPayload(data)
	e := &store.Entry{Kind: store.KindSystem, Event: string(event), CallID: callID, ToolName: tool, Data: raw}
	// Queued, not waited for: its event is out already, and the session's next write (the
	// call's result) commits after it (store/soon.go).
	if err := s.deps.Store.AppendSoon(s.cfg.ID, e); err != nil {
		s.deps.Log.Warn("record audit entry", "session", s.cfg.ID, "event", event, "err", err)
	}
}

func (s *session) respond(ctx actor.Context, msg any) {
	if ctx.Sender() != nil {
		ctx.Respond(msg)
	}
}

func validMode(m messages.Mode) bool {
	switch m {
	case messages.ModePlan, messages.ModeAsk, messages.ModeAutoEdit, messages.ModeYolo:
		return true
	}
	return false
}
