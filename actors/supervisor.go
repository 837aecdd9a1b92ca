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
// knows which are running. A start is answered when the session says it is up or that it
// failed, or when its actor stopped: never by a timer. A start of a session whose previous
// run is finishing (a resume right after session.finished) waits for that run to stop.
type supervisor struct {
	factory SessionFactory
	book    *sessionBook
}

// Internal messages between the supervisor and its sessions.
type (
	// activeSessions asks the supervisor which sessions run; it answers []string.
	activeSessions struct{}
	// sessionUp: a session has bound its inbox and control subjects; input sent to it now is
	// not lost.
	sessionUp struct{ id string }
	// sessionFinishing: a session has its outcome and is stopping. It is sent before the
	// session.finished event, so a start that follows the event finds the session finishing.
	sessionFinishing struct{ id, reason string }
	// sessionStopped follows a session's Terminated through the mailbox: Terminated is a system
	// message and overtakes the session's last messages, sessionStopped comes after them.
	sessionStopped struct{ who *actor.PID }
)

func newSupervisor(factory SessionFactory) actor.Producer {
	return func() actor.Actor { return &supervisor{factory: factory, book: newSessionBook()} }
}

// sessionSupervision restarts a crashed session a few times; a session that keeps crashing is
// stopped (its log stays resumable).
var sessionSupervision = actor.NewOneForOneStrategy(3, 30*time.Second, func(reason any) actor.Directive {
	return actor.RestartDirective
})

func (s *supervisor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.StartSession:
		s.startSession(ctx, queuedStart{start: msg, replyTo: ctx.Sender()})
	case *sessionUp:
		reply(ctx, s.book.up(msg.id), &messages.SessionAccepted{ID: msg.id})
	case *sessionFinishing:
		reply(ctx, s.book.finishing(msg.id), &messages.ErrorReply{Error: fmt.Sprintf("session %s did not start: %s", msg.id, msg.reason)})
	case *actor.Terminated:
		ctx.Send(ctx.Self(), &sessionStopped{who: msg.Who})
	case *sessionStopped:
		s.sessionStopped(ctx, msg)
	case *activeSessions:
		ctx.Respond(s.book.active())
	case *stopSession:
		if pid := s.book.stopping(msg.id); pid != nil {
			ctx.Poison(pid) // it records itself as interrupted, as when the node closes
		}
	case *actor.Stopping:
		for _, to := range s.book.waiting() {
			reply(ctx, to, &messages.ErrorReply{Error: "the troupe node is stopping: start the session again once it is up"})
		}
	}
}

// startSession builds the session's setup off the actor (setup_built.go), then spawns it; the
// answer comes when the session reports (see Receive), or at once when it could not start.
func (s *supervisor) startSession(ctx actor.Context, q queuedStart) {
	start := q.start
	if !messages.ValidToken(start.ID) {
		reply(ctx, q.replyTo, &messages.ErrorReply{Error: fmt.Sprintf("invalid session id %q", start.ID)})
		return
	}
	switch s.book.admit(q) {
	case admitAfterStop:
		return
	case refuseRunning:
		reply(ctx, q.replyTo, &messages.ErrorReply{Error: fmt.Sprintf("session %s is already running on this node", start.ID)})
		return
	}
	r := s.book.building(q)
	factory := s.factory
	offActor(ctx, setupTimeout, func() builtSetup { return factory.build(start) }, func(b builtSetup, timeout error) {
		failure := ""
		switch {
		case timeout != nil:
			failure = fmt.Sprintf("session %s did not start: its setup took longer than %v", start.ID, setupTimeout)
		case b.err != nil:
			failure = b.err.Error()
		}
		step := s.book.built(start.ID, r, failure)
		if step.act == setupSpawn {
			deps := b.deps
			deps.Supervisor = ctx.Self()
			// No Watch: the supervisor is the session's parent and hears of its stop once as such.
			pid, err := ctx.SpawnNamed(sessionProps(newSession(newSessionConfig(start), deps), deps.Runs), start.ID)
			if err == nil {
				s.book.launched(start.ID, pid, q.replyTo)
				return
			}
			step = s.book.built(start.ID, r, fmt.Sprintf("spawn session %s: %v", start.ID, err))
		}
		reply(ctx, step.starter, &messages.ErrorReply{Error: step.why})
		for _, n := range step.next {
			s.startSession(ctx, n)
		}
	})
}

func (s *supervisor) sessionStopped(ctx actor.Context, msg *sessionStopped) {
	id, starter, next := s.book.stopped(msg.who.Id)
	if id == "" {
		return
	}
	reply(ctx, starter, &messages.ErrorReply{Error: fmt.Sprintf("session %s stopped before it was ready", id)})
	for _, q := range next {
		s.startSession(ctx, q)
	}
}

// reply answers a requester, if there is one to answer.
func reply(ctx actor.Context, to *actor.PID, msg any) {
	if to != nil {
		ctx.Send(to, msg)
	}
}

// tellSupervisor reports a top-level session's start or end to the supervisor that started it.
func (s *session) tellSupervisor(ctx actor.Context, msg any) {
	if s.deps.Supervisor != nil {
		ctx.Send(s.deps.Supervisor, msg)
	}
}
