package gitship

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/messages"
)

// Objects is a project's JetStream object store bucket, where code travels between a parent
// and its workers when they share no git remote: bundles of base commits, patches of
// uncommitted changes, the branches writing children return, and the checkpoints of their
// worktrees (internal/taskstate).
//
// Object names (one place for them):
//
//	bundle/<commit>   a git bundle whose one ref is <commit> (prerequisites: earlier bundles)
//	patch/<task>      git diff --binary of the parent's uncommitted changes
//	result/<task>     a git bundle of a writing child's branch troupe/<task>
//	ckpt/<task>       a git bundle of a child's last worktree checkpoint
//	ctx/<task>        the context a fork or partial child inherits, when too large for its task
//	out/<task>        a child's whole result, when too large for the bus
//	evt/<session>/<seq>  the whole data of a worker's event too large for the bus
//
// What a task left is deleted in two steps: its worker deletes what only the worker reads
// (taskstate.Host.Done, once the task is acked), the parent what came back (Forget, once it
// has it).
type Objects struct {
	os     jetstream.ObjectStore
	bucket string
}

// BucketName is the object store bucket of a project: one per project, so a worker serving
// two projects never mixes their code, and a project's credentials can be limited to it.
func BucketName(project string) string { return "troupe_code_" + bucketSafe(project) }

// bucketSafe keeps the characters a bucket name allows (letters, digits, - and _).
func bucketSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// OpenObjects opens (creating when missing) the project's bucket. It asks for nothing newer
// than nats-server 2.9 has: file storage, one replica unless the caller's cluster wants more.
func OpenObjects(ctx context.Context, js jetstream.JetStream, project string, replicas int) (*Objects, error) {
	name := BucketName(project)
	st, err := js.ObjectStore(ctx, name)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		st, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{
			Bucket: name, Description: "troupe: code shipped to workers (docs/WORKERS.md)",
			Storage: jetstream.FileStorage, Replicas: max(replicas, 1),
		})
		if errors.Is(err, jetstream.ErrBucketExists) || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			st, err = js.ObjectStore(ctx, name)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("gitship: open object store %s: %w", name, err)
	}
	return &Objects{os: st, bucket: name}, nil
}

// Store is the bucket itself, for callers that keep other objects beside the code.
func (o *Objects) Store() jetstream.ObjectStore { return o.os }

// Bucket is the bucket's name.
func (o *Objects) Bucket() string { return o.bucket }

// ref is the reference a message carries for a stored object.
func (o *Objects) ref(info *jetstream.ObjectInfo) *messages.ObjectRef {
	return &messages.ObjectRef{Bucket: o.bucket, Name: info.Name, Bytes: int64(info.Size), Digest: info.Digest}
}

// check refuses a reference into another bucket: a worker serving two projects must not
// mix their code.
func (o *Objects) check(ref *messages.ObjectRef) error {
	if ref == nil || ref.Name == "" {
		return errors.New("an empty object reference")
	}
	if ref.Bucket != "" && ref.Bucket != o.bucket {
		return fmt.Errorf("object %s is in bucket %s, not this project's %s", ref.Name, ref.Bucket, o.bucket)
	}
	return nil
}

// PutFile stores the file at path under name.
func (o *Objects) PutFile(ctx context.Context, name, path string) (*messages.ObjectRef, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := o.os.Put(ctx, jetstream.ObjectMeta{Name: name}, f)
	if err != nil {
		return nil, fmt.Errorf("put %s in the object store: %w", name, err)
	}
	return o.ref(info), nil
}

// PutBytes stores data under name.
func (o *Objects) PutBytes(ctx context.Context, name string, data []byte) (*messages.ObjectRef, error) {
	info, err := o.os.PutBytes(ctx, name, data)
	if err != nil {
		return nil, fmt.Errorf("put %s in the object store: %w", name, err)
	}
	return o.ref(info), nil
}

// GetBytes reads object name; a missing object is ErrMissing.
func (o *Objects) GetBytes(ctx context.Context, name string) ([]byte, error) {
	b, err := o.os.GetBytes(ctx, name)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrMissing, name)
	}
	if err != nil {
		return nil, fmt.Errorf("get %s from the object store: %w", name, err)
	}
	return b, nil
}

// GetFile writes object name to path and returns its size; a missing object is ErrMissing.
func (o *Objects) GetFile(ctx context.Context, name, path string) (int64, error) {
	res, err := o.os.Get(ctx, name)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return 0, fmt.Errorf("%w: %s", ErrMissing, name)
	}
	if err != nil {
		return 0, fmt.Errorf("get %s from the object store: %w", name, err)
	}
	defer res.Close()
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, res)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("get %s from the object store: %w", name, err)
	}
	return n, nil
}

// Object names of a task's payloads (the list above).
func ContextName(task string) string { return "ctx/" + task }
func OutName(task string) string     { return "out/" + task }
func EventName(session string, seq uint64) string {
	return fmt.Sprintf("evt/%s/%d", session, seq)
}

// Forget deletes what a finished task left in the bucket (its patch, inherited context,
// checkpoint, returned branch and whole result), once the parent has its result; bundles of
// base commits stay, since later tasks build on them.
func (o *Objects) Forget(ctx context.Context, task string) error {
	return o.delete(ctx, "forget task "+task, "patch/"+task, ContextName(task), "ckpt/"+task, "result/"+task, OutName(task))
}

// Delete deletes the named objects; one that is not there is no error.
func (o *Objects) Delete(ctx context.Context, names ...string) error {
	return o.delete(ctx, "delete objects", names...)
}

func (o *Objects) delete(ctx context.Context, what string, names ...string) error {
	var errs []error
	for _, name := range names {
		if err := o.os.Delete(ctx, name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("gitship: %s: %w", what, err)
	}
	return nil
}

// Check refuses a reference into another bucket (a worker serving two projects must not mix
// their code) or an empty one.
func (o *Objects) Check(ref *messages.ObjectRef) error { return o.check(ref) }
