package actors

import (
	"fmt"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// fromExecutor says whether the message at hand came from the session's own executor. Its
// executor tells it everything with its PID as the sender; the same message types arriving any
// other way — published to the session's inbox subject by a bus client, which has no sender —
// are dropped and logged, so a forged result or approval request is never paired with a call.
// (An executor in another process would need its own credentials on the bus to be told apart;
// the bus has one token per node today, so none runs there.)
func (s *session) fromExecutor(ctx actor.Context) bool {
	sender := ctx.Sender()
	if sender != nil && s.links.toolexec != nil && sender.Equal(s.links.toolexec) {
		return true
	}
	from := "the bus"
	if sender != nil {
		from = sender.Address + "/" + sender.Id
	}
	attrs := []any{"session", s.cfg.ID, "message", fmt.Sprintf("%T", ctx.Message()), "from", from}
	if id := replyCallID(ctx.Message()); id != "" {
		attrs = append(attrs, "call", id, "pending", s.cur.batch.Has(s.turn, id))
	}
	s.deps.Log.Warn("dropped an executor reply that did not come from the session's executor", attrs...)
	return false
}

// onSessionAllowlist keeps what the executor's gate allows for the session, for the children
// the session starts (sessionAllowlist) and, in its meta, for a resume.
func (s *session) onSessionAllowlist(ctx actor.Context, msg *messages.SessionAllowlist) {
	if !s.fromExecutor(ctx) {
		// A child on a worker hears its parent's allowlist grow through the worker's inbox
		// for it (SessionDeps.RemoteParent): its gate takes the patterns.
		if s.deps.RemoteParent && ctx.Sender() == nil && s.links.toolexec != nil {
			ctx.Send(s.links.toolexec, msg)
		}
		return
	}
	s.takeKidsStep(ctx, s.kids.allowlistGrew(msg.Patterns))
	s.kids.allowlist = msg.Patterns
	if s.meta != nil && !slices.Equal(s.meta.Allowlist, msg.Patterns) {
		s.meta.Allowlist = slices.Clone(msg.Patterns)
		if err := s.putMeta(store.RepairStats{}); err != nil {
			s.deps.Log.Warn("record the session allowlist", "session", s.cfg.ID, "err", err)
		}
	}
}

// replyCallID is the call an executor reply is about, if it is about one.
func replyCallID(msg any) string {
	switch m := msg.(type) {
	case *messages.ToolResult:
		return m.CallID
	case *messages.ApprovalNeeded:
		return m.CallID
	case *messages.ToolStarted:
		return m.CallID
	case *messages.ToolDecision:
		return m.CallID
	}
	return ""
}
