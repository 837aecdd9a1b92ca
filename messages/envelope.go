package messages

import (
	"encoding/json"
	"fmt"
	"time"
)

// Version of the event envelope.
const Version = 1

// Envelope is one event as it travels on the bus and as it is printed by `troupe run --json`
// and `troupe watch --json`, one JSON object per line. Seq is per session and gap-free, starting
// at 1, so a monitor can tell it missed something.
type Envelope struct {
	V       int             `json:"v"`
	Seq     uint64          `json:"seq"`
	TS      time.Time       `json:"ts"`
	NS      string          `json:"ns"`
	Session string          `json:"session"`
	Agent   string          `json:"agent,omitempty"`
	Parent  string          `json:"parent,omitempty"`
	Type    EventType       `json:"type"`
	Data    json.RawMessage `json:"data,omitempty"`
	// DataRef names the artifact holding the whole Data when it was too large for the bus
	// (DataBytes long); Data is then a preview with long strings cut (see payload.go).
	DataRef   string `json:"data_ref,omitempty"`
	DataBytes int    `json:"data_bytes,omitempty"`
	// DataObject names the object holding the whole Data when the event came from another
	// machine (a worker), whose store the reader cannot open: the project's object store.
	DataObject *ObjectRef `json:"data_object,omitempty"`
}

// DecodeData decodes the payload into the struct its Type names.
func (e *Envelope) DecodeData() (any, error) {
	v := NewEventData(e.Type)
	if v == nil {
		return nil, fmt.Errorf("event %s: unknown type", e.Type)
	}
	if len(e.Data) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(e.Data, v); err != nil {
		return nil, fmt.Errorf("event %s data: %w", e.Type, err)
	}
	return v, nil
}

// Emitter stamps and numbers the events of one session. It is owned by one goroutine (the
// session actor), which is what makes Seq gap-free; it is not safe for concurrent use.
type Emitter struct {
	NS, Session, Agent, Parent string
	seq                        uint64
	publish                    func(subject string, data []byte) error
	now                        func() time.Time
}

// NewEmitter returns an Emitter that hands each encoded envelope to publish. next is the seq of
// the first event (1 for a new session; a resumed session continues its numbering).
func NewEmitter(ns, session, agent, parent string, next uint64, publish func(subject string, data []byte) error) *Emitter {
	if next == 0 {
		next = 1
	}
	return &Emitter{NS: ns, Session: session, Agent: agent, Parent: parent, seq: next - 1, publish: publish, now: time.Now}
}

// Seq is the seq of the last event emitted.
func (em *Emitter) Seq() uint64 { return em.seq }

// ContinueAfter makes the next event's seq follow last, the seq a previous run of the session
// ended with, so a monitor sees one sequence per session across resumes. It only applies to an
// emitter that has not emitted yet (a restarted actor keeps the sequence it has).
func (em *Emitter) ContinueAfter(last uint64) {
	if em.seq == 0 {
		em.seq = last
	}
}

// Emit publishes one event. A payload that cannot be encoded is a programming error reported
// as an error event rather than lost silently. An event that cannot be published is replaced,
// under the same seq, by a fatal error event saying so: a monitor sees the loss, never a gap.
// The error is returned either way, for the session to fail on.
func (em *Emitter) Emit(p Payload) (*Envelope, error) {
	t, data := p.EventType(), p.Data()
	var raw []byte
	var err error
	fast := writtenByHand(data)
	if !fast {
		if raw, err = json.Marshal(data); err != nil {
			raw, _ = json.Marshal(&ErrorData{Message: fmt.Sprintf("encode %s event: %v", t, err)})
			t = EventError
		}
	}
	em.seq++
	env := &Envelope{V: Version, Seq: em.seq, TS: em.now().UTC(), NS: em.NS, Session: em.Session,
		Agent: em.Agent, Parent: em.Parent, Type: t, Data: raw}
	var line []byte
	if fast { // the payload is written into the line itself, and Data is that part of it
		line, err = appendEnvelopeHead(make([]byte, 0, payloadHint(data)+192), env)
		if err == nil {
			line = append(line, `,"data":`...)
			start := len(line)
			line, _ = appendPayload(line, data)
			env.Data = line[start:len(line):len(line)]
			line = appendEnvelopeTail(line, env)
		}
	} else {
		line, err = appendEnvelope(make([]byte, 0, len(raw)+160), env)
	}
	if err != nil {
		return env, fmt.Errorf("encode envelope: %w", err)
	}
	if err := em.publish(EventSubject(em.NS, em.Session, t), line); err != nil {
		err = fmt.Errorf("publish %s event of %d bytes: %w", t, len(line), err)
		em.publishInstead(env, err)
		return env, err
	}
	return env, nil
}

// publishInstead publishes a fatal error event under env's seq, in place of env.
func (em *Emitter) publishInstead(env *Envelope, cause error) {
	raw, _ := json.Marshal(&ErrorData{Message: fmt.Sprintf("an event could not be published: %v", cause), Fatal: true})
	stand := *env
	stand.Type, stand.Data = EventError, raw
	if line, err := json.Marshal(&stand); err == nil {
		_ = em.publish(EventSubject(em.NS, em.Session, EventError), line) // the caller reports cause
	}
}
