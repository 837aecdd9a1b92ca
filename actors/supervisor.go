package actors

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// SessionFactory builds what a new session needs (provider, tools, prompt) from its start
// request. An error is a setup problem reported to whoever asked for the session.
type SessionFactory func(start *messages.StartSession) (SessionDeps, error)

// supervisor is the Supervisor actor: it owns every session of its Node, starts them on
// request, restarts a session that panics (the session reloads itself from the store), and
// knows which are running.
type supervisor struct {
	factory  SessionFactory
	sessions map[string]*actor.PID
}

// activeSessions asks the supervisor which sessions run; it answers []string.
type activeSessions struct{}

// sessionReady asks a new session to answer once it has started: its mailbox processes Started
// first, so by then its inbox and control subjects are bound and input sent to it is not lost.
type sessionReady struct{}

func newSupervisor(factory SessionFactory) actor.Producer {
	return func() actor.Actor { return &supervisor{factory: factory, sessions: map[string]*actor.PID{}} }
}

// sessionSupervision restarts a crashed session a few times; a session that keeps crashing is
// stopped (its log stays resumable).
var sessionSupervision = actor.NewOneForOneStrategy(3, 30*time.Second, func(reason any) actor.Directive {
	return actor.RestartDirective
})

func (s *supervisor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.StartSession:
		s.startSession(ctx, msg)
	case *actor.Terminated:
		s.sessionEnded(msg)
	case *activeSessions:
		ctx.Respond(s.active())
	}
}

// startSession spawns the session and answers the requester once the session is ready,
// without blocking the supervisor's mailbox meanwhile.
func (s *supervisor) startSession(ctx actor.Context, start *messages.StartSession) {
	if !messages.ValidToken(start.ID) {
		ctx.Respond(&messages.ErrorReply{Error: fmt.Sprintf("invalid session id %q", start.ID)})
		return
	}
	if _, running := s.sessions[start.ID]; running {
		ctx.Respond(&messages.ErrorReply{Error: fmt.Sprintf("session %s is already running on this node", start.ID)})
		return
	}
	deps, err := s.factory(start)
	if err != nil {
		ctx.Respond(&messages.ErrorReply{Error: err.Error()})
		return
	}
	props := actor.PropsFromProducer(newSession(start, deps))
	pid, err := ctx.SpawnNamed(props, start.ID)
	if err != nil {
		ctx.Respond(&messages.ErrorReply{Error: fmt.Sprintf("spawn session %s: %v", start.ID, err)})
		return
	}
	ctx.Watch(pid)
	s.sessions[start.ID] = pid
	ctx.ReenterAfter(ctx.RequestFuture(pid, &sessionReady{}, 10*time.Second), func(res any, err error) {
		if err != nil {
			ctx.Respond(&messages.ErrorReply{Error: fmt.Sprintf("session %s did not start: %v", start.ID, err)})
			return
		}
		ctx.Respond(&messages.SessionAccepted{ID: start.ID})
	})
}

func (s *supervisor) sessionEnded(msg *actor.Terminated) {
	for id, pid := range s.sessions {
		if pid.Id == msg.Who.Id {
			delete(s.sessions, id)
			return
		}
	}
}

func (s *supervisor) active() []string {
	ids := make([]string, 0, len(s.sessions))
	for id := range s.sessions {
		ids = append(ids, id)
	}
	return ids
}
