package actors

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/taskstate"
	"github.com/troupe-dev/troupe/messages"
)

// Bridge binds actors to the bus: it subscribes an actor's inbox subject and forwards each
// decoded message into its mailbox, answers request/reply subjects by asking the actor, and
// publishes messages and events. Actors never hold a NATS connection themselves.
//
// A message or event larger than messages.MaxInline goes by reference (large.go): the bus
// refuses messages over its limit, and a refused event would break the gap-free seq.
type Bridge struct {
	nc        *nats.Conn
	root      *actor.RootContext
	ns        string
	log       *slog.Logger
	artifacts PayloadStore
	// objects, on a worker, keeps oversized events' data in the project's object store.
	objects EventObjects
	// limit is the largest message or event sent inline (messages.MaxInline, or less where
	// the server's max payload is smaller).
	limit int
	// inbox is the subject of the actor at an address: troupe.<ns>.inbox.<addr> on a Node,
	// troupe.<ns>.wrk.<worker>.inbox.<addr> on a worker (onWorker).
	inbox func(ns, addr string) string
	// steer checks who may steer a session on its control subject (steer.go); nil: no check.
	// Set once at the Node's start, before any session binds.
	steer *steerKeys
}

// NewBridge returns a Bridge over an (in-process) connection; large payloads are kept in
// artifacts.
func NewBridge(nc *nats.Conn, root *actor.RootContext, ns string, log *slog.Logger, artifacts PayloadStore) *Bridge {
	return &Bridge{nc: nc, root: root, ns: ns, log: log, artifacts: artifacts, inbox: messages.InboxSubject,
		limit: taskstate.InlineLimit(nc.MaxPayload())}
}

// onWorker makes the Bridge bind and address inboxes under worker w's subjects: the sessions
// a worker runs live on troupe.<ns>.wrk.<w>.inbox.<addr>, where that worker's credentials may
// publish (docs/WORKERS.md).
func (b *Bridge) onWorker(w string) {
	b.inbox = func(ns, addr string) string { return messages.WorkerInboxSubject(ns, w, addr) }
}

// NS is the project namespace of the subjects this Bridge uses.
func (b *Bridge) NS() string { return b.ns }

// Bind forwards every message arriving on addr's inbox subject into pid's mailbox. The caller
// unsubscribes when the actor stops.
func (b *Bridge) Bind(addr string, pid *actor.PID) (*nats.Subscription, error) {
	sub, err := b.Forward(b.inbox(b.ns, addr), pid, nil)
	if err != nil {
		return nil, fmt.Errorf("bind inbox: %w", err)
	}
	return sub, nil
}

// Forward delivers every message arriving on subject (a wildcard is fine) into pid's mailbox,
// decoded; wrap, when given, turns it into what pid takes (nil drops it), knowing the subject
// it came on. The caller unsubscribes when the actor stops.
func (b *Bridge) Forward(subject string, pid *actor.PID, wrap func(subject string, msg any) any) (*nats.Subscription, error) {
	sub, err := b.nc.Subscribe(subject, func(m *nats.Msg) {
		msg, err := b.decode(m.Data)
		if err != nil {
			b.log.Warn("dropped undecodable message", "subject", m.Subject, "err", err)
			return
		}
		if wrap != nil {
			if msg = wrap(m.Subject, msg); msg == nil {
				return
			}
		}
		b.root.Send(pid, msg)
	})
	if err != nil {
		return nil, fmt.Errorf("subscribe %s: %w", subject, err)
	}
	// The mailbox is unbounded and Send never blocks, so the pending limits only guard memory.
	sub.SetPendingLimits(1<<20, 512<<20)
	return sub, nil
}

// PublishTo sends msg on subject as it is, never by reference: for subjects another process
// reads (a worker's inbox, the workers' results), where a reference into this Node's store
// would resolve nowhere.
func (b *Bridge) PublishTo(subject string, msg any) error {
	data, err := messages.Encode(msg)
	if err != nil {
		return err
	}
	return b.nc.Publish(subject, data)
}

// BindRequests answers request/reply messages on subject by asking pid and publishing its
// response (any wire message) back to the requester.
func (b *Bridge) BindRequests(subject string, pid *actor.PID, timeout time.Duration) (*nats.Subscription, error) {
	sub, err := b.nc.Subscribe(subject, func(m *nats.Msg) {
		b.respondTo(m, subject, b.ask(pid, m.Data, timeout))
	})
	if err != nil {
		return nil, fmt.Errorf("bind requests %s: %w", subject, err)
	}
	return sub, nil
}

// respondTo answers request m (if it wants an answer) with reply.
func (b *Bridge) respondTo(m *nats.Msg, subject string, reply any) {
	if m.Reply == "" {
		return
	}
	data, err := messages.Encode(reply)
	if err != nil {
		data, _ = messages.Encode(&messages.ErrorReply{Error: err.Error()})
	}
	if err := m.Respond(data); err != nil {
		b.log.Warn("respond to request", "subject", subject, "err", err)
	}
}

func (b *Bridge) ask(pid *actor.PID, data []byte, timeout time.Duration) any {
	msg, err := b.decode(data)
	if err != nil {
		return &messages.ErrorReply{Error: err.Error()}
	}
	return b.askDecoded(pid, msg, timeout)
}

func (b *Bridge) askDecoded(pid *actor.PID, msg any, timeout time.Duration) any {
	res, err := b.root.RequestFuture(pid, msg, timeout).Result()
	if err != nil {
		return &messages.ErrorReply{Error: fmt.Sprintf("no answer: %v", err)}
	}
	return res
}

// Send publishes msg to the inbox of the actor at addr.
func (b *Bridge) Send(addr string, msg any) error {
	data, err := messages.Encode(msg)
	if err != nil {
		return err
	}
	if data, err = b.messageByReference(data); err != nil {
		return fmt.Errorf("send to %s: %w", addr, err)
	}
	if err := b.nc.Publish(b.inbox(b.ns, addr), data); err != nil {
		return fmt.Errorf("send to %s: %w", addr, err)
	}
	return nil
}

// Publish sends an encoded event envelope on a subject.
func (b *Bridge) Publish(subject string, data []byte) error {
	data, err := b.eventByReference(data)
	if err != nil {
		return err
	}
	return b.nc.Publish(subject, data)
}

// Flush waits until everything published so far reached the server.
func (b *Bridge) Flush() error { return b.nc.FlushTimeout(5 * time.Second) }
