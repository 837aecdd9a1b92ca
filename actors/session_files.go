package actors

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// recheckTimeout bounds the file recheck before a model call; past it the call goes on without.
const recheckTimeout = time.Minute

// recheckExpired tells the session that its executor did not answer a RecheckFiles in time.
type recheckExpired struct{ turn int }

// recheckFiles re-checks the files the session has read before the model is called
// (docs/ARCHITECTURE.md, "How a turn flows"): external edits and deletions become a note in the
// prompt, and events. The file truth is
// the executor's, so the session asks it (RecheckFiles) and the turn goes on when the answer
// (FilesRechecked) or the timeout arrives; a Cancel meanwhile ends the turn (cancelTurn). The
// call a batch's last result starts was asked for with the batch (recheckAhead): its answer
// follows that result, so the call takes it, or waits for it, without asking.
func (s *session) recheckFiles(ctx actor.Context) {
	if s.turn == 1 && !s.cfg.Resume {
		// Nothing to recheck yet: the file truth grows only by this run's tool calls, or
		// comes from the store on a resume. Not asking saves a fresh session (a subagent just
		// spawned) a round trip before its first call.
		s.prepareCall(ctx)
		return
	}
	turn, self, root := s.turn, ctx.Self(), ctx.ActorSystem().Root
	s.cur.recheck = time.AfterFunc(recheckTimeout, func() { root.Send(self, &recheckExpired{turn: turn}) })
	switch answer, ask := s.cur.ahead.atCall(turn); {
	case answer != nil:
		s.takeTurnStep(ctx, s.cur.rechecked(turn, answer))
	case ask:
		ctx.Send(s.links.toolexec, &messages.RecheckFiles{Turn: turn})
	}
}

// onRecheckExpired goes on without the recheck.
func (s *session) onRecheckExpired(ctx actor.Context, msg *recheckExpired) {
	if !s.cur.stopRecheck(msg.turn, s.turn) {
		return
	}
	s.deps.Log.Warn("recheck files: no answer from the executor; calling the model without it", "session", s.cfg.ID, "after", recheckTimeout)
	s.prepareCall(ctx)
}
