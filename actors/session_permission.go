package actors

import (
	"encoding/json"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// The session's half of permissions: its tool executor decides each call and, when it must ask,
// the session publishes the request and takes the answer from any bus client on its control
// subject. Every decision is an event and a log entry (the audit trail `troupe log` shows).

// onSetMode switches the permission mode for the rest of the session.
func (s *session) onSetMode(ctx actor.Context, msg *messages.SetMode) {
	if err := s.switchMode(ctx, msg); err != nil {
		s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
		return
	}
	s.respond(ctx, s.status())
}

// switchMode hands the new mode to the executor (the only one that applies it) and records who
// switched, as an event and in the log.
func (s *session) switchMode(ctx actor.Context, msg *messages.SetMode) error {
	if !validMode(msg.Mode) {
		return fmt.Errorf("mode %q: use plan, ask, auto-edit or yolo", msg.Mode)
	}
	ctx.Send(s.links.toolexec, msg)
	s.cfg.Mode = msg.Mode
	p := messages.SessionModeEvent.Of(&messages.ModeData{Mode: msg.Mode, By: msg.By})
	s.emit(p)
	s.audit(p.EventType(), "", "", p.Data())
	return nil
}

// audit appends an audit-only entry: the model never sees it; `troupe log` does.
func (s *session) audit(event messages.EventType, callID, tool string, data any) {
	raw, _ := json.Marshal(data)
	e := &store.Entry{Kind: store.KindSystem, Event: string(event), CallID: callID, ToolName: tool, Data: raw}
	if err := s.deps.Store.Append(s.cfg.ID, e); err != nil {
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
