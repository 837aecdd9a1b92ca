package actors

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// sessionEvent is one event of another session, decoded on the bus's goroutine and delivered
// into the mailbox of an actor that follows that session.
type sessionEvent struct {
	Session string
	Type    messages.EventType
	Data    any // the payload struct Type names
}

// Follow forwards every event of session into pid's mailbox as a *sessionEvent. Events whose
// payload does not decode are dropped with a warning. The caller unsubscribes.
func (b *Bridge) Follow(session string, pid *actor.PID) (*nats.Subscription, error) {
	subject := messages.SessionEventsSubject(b.ns, session)
	sub, err := b.nc.Subscribe(subject, func(m *nats.Msg) {
		var env messages.Envelope
		if err := messages.DecodeEnvelope(m.Data, &env); err != nil {
			b.log.Warn("dropped undecodable event", "subject", m.Subject, "err", err)
			return
		}
		if err := b.wholeEventData(&env); err != nil {
			b.log.Warn("event sent by reference: using its preview", "subject", m.Subject, "err", err)
		}
		data, err := env.DecodeData()
		if err != nil {
			b.log.Warn("dropped undecodable event", "subject", m.Subject, "err", err)
			return
		}
		b.root.Send(pid, &sessionEvent{Session: env.Session, Type: env.Type, Data: data})
	})
	if err != nil {
		return nil, fmt.Errorf("follow %s: %w", session, err)
	}
	sub.SetPendingLimits(1<<20, 512<<20)
	return sub, nil
}
