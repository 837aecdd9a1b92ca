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

// messageByReference returns an encoded actor message as it may travel: itself when small,
// else a PayloadRef to an artifact holding it.
func (b *Bridge) messageByReference(data []byte) ([]byte, error) {
	if len(data) <= messages.MaxInline {
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

// eventByReference returns an encoded event envelope as it may travel: itself when small, else
// the same envelope with its Data kept as an artifact, named in DataRef, and a preview inline.
func (b *Bridge) eventByReference(line []byte) ([]byte, error) {
	if len(line) <= messages.MaxInline {
		return line, nil
	}
	if b.artifacts == nil {
		return nil, fmt.Errorf("an event of %d bytes is over the bus limit and this bridge keeps no artifacts", len(line))
	}
	var env messages.Envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return nil, fmt.Errorf("an oversized event (%d bytes) that is not an envelope: %w", len(line), err)
	}
	ref, err := b.artifacts.PutArtifact(env.Data)
	if err != nil {
		return nil, fmt.Errorf("keep the %d-byte payload of a %s event: %w", len(env.Data), env.Type, err)
	}
	preview, err := messages.ShortenJSON(env.Data, ref)
	if err != nil {
		return nil, err
	}
	if len(preview) > messages.MaxInline {
		preview = nil // many short strings: the reference alone
	}
	env.DataRef, env.DataBytes, env.Data = ref, len(env.Data), preview
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
	if env.DataRef == "" || b.artifacts == nil {
		return nil
	}
	whole, err := b.artifacts.Artifact(env.DataRef)
	if err != nil {
		return fmt.Errorf("load the payload of a %s event: %w", env.Type, err)
	}
	env.Data, env.DataRef, env.DataBytes = whole, "", 0
	return nil
}
