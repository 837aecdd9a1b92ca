package taskstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/messages"
)

// Payloads too large for the bus travel through the project's object store (docs/WORKERS.md
// "Large payloads"), never as a reference into one machine's store, which the other side
// cannot open: a child's whole result (out/<task>), the context a fork or partial child
// inherits (ctx/<task>).

// busHeadroom is what a message needs beside its payload (subject, headers, the publish's own
// framing), kept free under the server's max payload.
const busHeadroom = 64 << 10

// InlineLimit is the largest message sent inline on a connection whose server takes at most
// maxPayload bytes: messages.MaxInline, or less on a server configured smaller (nats-server's
// default max payload is 1 MiB).
func InlineLimit(maxPayload int64) int {
	if maxPayload <= 0 {
		return messages.MaxInline
	}
	return int(max(min(int64(messages.MaxInline), maxPayload-busHeadroom), 1<<10))
}

// previewBytes is how much of a long summary or error a result's preview keeps.
const previewBytes = 16 << 10

// ResultForBus returns r as it may travel on the bus, encoded in at most limit bytes: r itself,
// or a preview (the status, usage and branch, the summary and error cut short) whose Full names
// the whole result, stored as out/<task>.
func ResultForBus(ctx context.Context, objs *gitship.Objects, r *messages.AgentResult, limit int) (*messages.AgentResult, error) {
	data, err := messages.Encode(r)
	if err != nil {
		return nil, err
	}
	if len(data) <= limit {
		return r, nil
	}
	whole, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	ref, err := objs.PutBytes(ctx, gitship.OutName(r.Session), whole)
	if err != nil {
		return nil, fmt.Errorf("taskstate: keep a %d-byte result: %w", len(whole), err)
	}
	where := "object " + ref.Bucket + "/" + ref.Name
	return &messages.AgentResult{Handle: r.Handle, Session: r.Session, Role: r.Role, Status: r.Status, Verdict: r.Verdict,
		Usage: r.Usage, Branch: r.Branch, Bundle: r.Bundle, Worker: r.Worker, Full: ref,
		Summary: messages.Preview(r.Summary, previewBytes, where), Error: messages.Preview(r.Error, previewBytes, where)}, nil
}

// WholeResult is the parent's side of ResultForBus: r itself, or the whole result its Full
// names. The whole must be the same task's.
func WholeResult(ctx context.Context, objs *gitship.Objects, r *messages.AgentResult) (*messages.AgentResult, error) {
	if r.Full == nil {
		return r, nil
	}
	if err := objs.Check(r.Full); err != nil {
		return nil, fmt.Errorf("the whole result of %s: %w", r.Handle, err)
	}
	data, err := objs.GetBytes(ctx, r.Full.Name)
	if err != nil {
		return nil, fmt.Errorf("the whole result of %s: %w", r.Handle, err)
	}
	var whole messages.AgentResult
	if err := json.Unmarshal(data, &whole); err != nil {
		return nil, fmt.Errorf("the whole result of %s: %w", r.Handle, err)
	}
	if whole.Session != r.Session {
		return nil, fmt.Errorf("the whole result of %s: object %s holds task %q's", r.Handle, r.Full.Name, whole.Session)
	}
	whole.Full = nil
	return &whole, nil
}

// ShipContext moves t's inherited context to the object store (ctx/<task>) when t would not
// fit in limit bytes with it inline, and returns the bytes uploaded.
func ShipContext(ctx context.Context, objs *gitship.Objects, t *messages.SpawnTask, limit int) (int64, error) {
	if t.Inherited == nil || len(t.Inherited.Inline) == 0 {
		return 0, nil
	}
	data, err := messages.Encode(t)
	if err != nil {
		return 0, err
	}
	if len(data) <= limit {
		return 0, nil
	}
	ref, err := objs.PutBytes(ctx, gitship.ContextName(t.ID), t.Inherited.Inline)
	if err != nil {
		return 0, fmt.Errorf("taskstate: keep the %d-byte inherited context: %w", len(t.Inherited.Inline), err)
	}
	t.Inherited = &messages.Blob{Ref: ref}
	return ref.Bytes, nil
}

// InheritedContext is the JSON of the messages t's child inherits: inline, or fetched from the
// object store. Nothing to inherit is nil.
func InheritedContext(ctx context.Context, objs *gitship.Objects, t *messages.SpawnTask) ([]byte, error) {
	switch {
	case t.Inherited.Empty():
		return nil, nil
	case t.Inherited.Ref == nil:
		return t.Inherited.Inline, nil
	case objs == nil:
		return nil, errors.New("the inherited context is in the object store and this worker has none")
	}
	if err := objs.Check(t.Inherited.Ref); err != nil {
		return nil, fmt.Errorf("the inherited context: %w", err)
	}
	data, err := objs.GetBytes(ctx, t.Inherited.Ref.Name)
	if err != nil {
		return nil, fmt.Errorf("the inherited context: %w", err)
	}
	return data, nil
}
