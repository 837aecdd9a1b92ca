package actors

import (
	"encoding/json"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// PayloadStore keeps what is too large for the bus, content-addressed (the store's artifacts).
type PayloadStore interface {
	PutArtifact(data []byte) (string, error)
	Artifact(ref string) ([]byte, error)
}

// inlineLimit is the largest message or event sent inline.
func (b *Bridge) inlineLimit() int {
	if b.limit > 0 {
		return b.limit
	}
	return messages.MaxInline
}

// messageByReference returns an encoded actor message as it may travel: itself when small,
// else a PayloadRef to an artifact holding it.
func (b *Bridge) messageByReference(data []byte) ([]byte, error) {
	if len(data) <= b.inlineLimit() {
		return data, nil
	}
	if b.artifacts == nil {
		return nil, fmt.Errorf("a message of %d bytes is over the bus limit and this bridge keeps no artifacts", len(data))
	}
	ref, err := b.artifacts.PutArtifact(data)
	if err != nil {
		return nil, fmt.Errorf("keep a %d-byte message for the bus: %w", len(data), err)
	}
	return messages.Encode(&messages.PayloadRef{Ref: ref, Bytes: len(data)})
}

// decode decodes an actor message from the bus, loading it from its artifact if it came by
// reference. It runs on the subscription's goroutine, never in an actor's Receive.
func (b *Bridge) decode(data []byte) (any, error) {
	msg, err := messages.Decode(data)
	if err != nil {
		return nil, err
	}
	ref, ok := msg.(*messages.PayloadRef)
	if !ok {
		return msg, nil
	}
	if b.artifacts == nil {
		return nil, fmt.Errorf("a message came by reference (%s) and this bridge keeps no artifacts", ref.Ref)
	}
	whole, err := b.artifacts.Artifact(ref.Ref)
	if err != nil {
		return nil, fmt.Errorf("load a message sent by reference: %w", err)
	}
	return messages.Decode(whole)
}

// EventObjects keeps the whole Data of events too large for the bus where every machine of the
// project can read it: a worker's events are read by the parent's machine and watchers, which
// cannot open the worker's store (the project's object store, worker_payloads.go).
type EventObjects interface {
	PutEvent(session string, seq uint64, data []byte) (*messages.ObjectRef, error)
	EventData(ref *messages.ObjectRef) ([]byte, error)
}

// eventByReference returns an encoded event envelope as it may travel: itself when small, else
// the same envelope with its Data kept elsewhere and a preview inline: in the event objects
// (DataObject) on a bridge that has them, else as an artifact of this machine's store (DataRef).
func (b *Bridge) eventByReference(line []byte) ([]byte, error) {
	if len(line) <= b.inlineLimit() {
		return line, nil
	}
	if b.artifacts == nil && b.objects == nil {
		return nil, fmt.Errorf("an event of %d bytes is over the bus limit and this bridge keeps no artifacts", len(line))
	}
	var env messages.Envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return nil, fmt.Errorf("an oversized event (%d bytes) that is not an envelope: %w", len(line), err)
	}
	var where string
	if b.objects != nil {
		obj, err := b.objects.PutEvent(env.Session, env.Seq, env.Data)
		if err != nil {
			return nil, fmt.Errorf("keep the %d-byte payload of a %s event: %w", len(env.Data), env.Type, err)
		}
		env.DataObject, where = obj, "object "+obj.Bucket+"/"+obj.Name
	} else {
		ref, err := b.artifacts.PutArtifact(env.Data)
		if err != nil {
			return nil, fmt.Errorf("keep the %d-byte payload of a %s event: %w", len(env.Data), env.Type, err)
		}
		env.DataRef, where = ref, "artifact "+ref
	}
	preview, err := messages.ShortenJSON(env.Data, where)
	if err != nil {
		return nil, err
	}
	if len(preview) > b.inlineLimit()/2 {
		preview = nil // many short strings: the reference alone
	}
	env.DataBytes, env.Data = len(env.Data), preview
	return json.Marshal(&env)
}

// failOnLostEvent ends the session when one of its events could not be published: going on
// would leave monitors with a history that is not the session's.
func (s *session) failOnLostEvent(ctx actor.Context) {
	if s.links.lostEvent == nil || s.finished() {
		return
	}
	s.fail(ctx, messages.FailEvents, fmt.Sprintf("the session stopped because an event could not be published: %v", s.links.lostEvent))
}

// wholeEventData puts back the whole Data of an event that came by reference.
func (b *Bridge) wholeEventData(env *messages.Envelope) error {
	var whole []byte
	var err error
	switch {
	case env.DataObject != nil && b.objects != nil:
		whole, err = b.objects.EventData(env.DataObject)
	case env.DataObject != nil:
		return fmt.Errorf("the payload of a %s event is in the object store, which this bridge does not read", env.Type)
	case env.DataRef != "" && b.artifacts != nil:
		whole, err = b.artifacts.Artifact(env.DataRef)
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("load the payload of a %s event: %w", env.Type, err)
	}
	env.Data, env.DataRef, env.DataObject, env.DataBytes = whole, "", nil, 0
	return nil
}
