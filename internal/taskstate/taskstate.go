// Package taskstate keeps a remote child's state where another worker can find it, so a task
// redelivered after its worker died resumes instead of starting over (docs/WORKERS.md "When a
// worker dies"):
//
//   - the child's transcript, mirrored entry by entry from the worker's store (its commit
//     hook) to the project's JetStream key-value bucket, keyed by task id;
//   - its worktree, checkpointed to the project's object store after each tool result
//     (internal/gitship), before that result is mirrored, so a resumed transcript never claims
//     a write the worktree lacks.
//
// On a later delivery the worker restores both, and the session resumes from its log through
// the ordinary resume path, which answers a tool call cut off mid-way with an interrupted
// result (store.Heal) instead of running it again. The parent's own record stays in its store.
package taskstate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/gitship"
)

// State is a project's bucket of children's transcripts, beside its code bucket.
//
// Keys (one place for them):
//
//	<task>.meta         the session's store.SessionMeta (JSON)
//	<task>.e.<seq>      one store.Entry (JSON), seq as 16 hex digits; or "@obj:<name>", an
//	                    entry too large for a key-value message, kept as object tlog/<task>/<seq>
type State struct {
	kv     jetstream.KeyValue
	objs   *gitship.Objects
	bucket string
	stream jetstream.Stream // the bucket's stream, for ForgetWritten (nil: Forget only)
	js     jetstream.JetStream
}

// BucketName is the key-value bucket of a project's task state.
func BucketName(project string) string {
	return "troupe_state_" + strings.TrimPrefix(gitship.BucketName(project), "troupe_code_")
}

// Open opens (creating when missing) the project's state bucket; objs is its code bucket, for
// checkpoints and oversized entries. Nothing newer than nats-server 2.9 is asked for.
func Open(ctx context.Context, js jetstream.JetStream, project string, objs *gitship.Objects, replicas int) (*State, error) {
	name := BucketName(project)
	kv, err := js.KeyValue(ctx, name)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket: name, Description: "troupe: remote children's transcripts (docs/WORKERS.md)",
			History: 1, Storage: jetstream.FileStorage, Replicas: max(replicas, 1),
		})
		if errors.Is(err, jetstream.ErrBucketExists) || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			kv, err = js.KeyValue(ctx, name)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("taskstate: open key-value bucket %s: %w", name, err)
	}
	stream, _ := js.Stream(ctx, "KV_"+name) // none: ForgetWritten falls back to Forget
	return &State{kv: kv, objs: objs, bucket: name, stream: stream, js: js}, nil
}

func metaKey(task string) string { return task + ".meta" }

func entryKey(task string, seq uint64) string { return fmt.Sprintf("%s.e.%016x", task, seq) }

// seqOfKey reads the seq of an entry key; ok is false for other keys.
func seqOfKey(task, key string) (uint64, bool) {
	hex, ok := strings.CutPrefix(key, task+".e.")
	if !ok {
		return 0, false
	}
	seq, err := strconv.ParseUint(hex, 16, 64)
	return seq, err == nil
}

// bigEntryName is the object an oversized entry is kept in.
func bigEntryName(task string, seq uint64) string { return fmt.Sprintf("tlog/%s/%016x", task, seq) }

// objPrefix marks a value that points at an object instead of holding the entry.
const objPrefix = "@obj:"

// maxValue is the largest entry kept in the bucket itself: nats-server's default max payload is
// 1 MiB for the whole message, headers included.
const maxValue = 900 << 10

// Forget removes a task's transcript, its oversized entries and its worktree checkpoint: before
// a fresh start (so an old attempt's state is never resumed), and once the task's result is
// acked (Host.Done). What went back to the parent stays until it has it (gitship.Objects.Forget).
func (s *State) Forget(ctx context.Context, task string) error {
	var errs []error
	keys, err := s.kv.ListKeysFiltered(ctx, task+".>")
	if err != nil {
		return fmt.Errorf("taskstate: forget %s: %w", task, err)
	}
	for key := range keys.Keys() {
		if seq, ok := seqOfKey(task, key); ok {
			_ = s.objs.Store().Delete(ctx, bigEntryName(task, seq)) // usually there is none
		}
		if err := s.kv.Purge(ctx, key); err != nil {
			errs = append(errs, err)
		}
	}
	if err := s.objs.Store().Delete(ctx, "ckpt/"+task); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("taskstate: forget %s: %w", task, err)
	}
	return nil
}

// ForgetWritten forgets a task whose whole state this worker wrote in this run (its start
// was fresh): its keys go in one purge of the bucket's stream by the task's subjects, and the
// objects it is known to have (big, the oversized entries' names; its checkpoint when ckpt)
// are deleted; no keys are listed and no marker is left per key. Forget lists the keys and
// asks for an object per key: a dozen requests per task, which at thousands of tasks made the
// server the bottleneck (bench/workers). It falls back to Forget when the purge fails.
func (s *State) ForgetWritten(ctx context.Context, task string, big []string, ckpt bool) error {
	if s.stream == nil {
		return s.Forget(ctx, task)
	}
	if err := s.stream.Purge(ctx, jetstream.WithPurgeSubject("$KV."+s.bucket+"."+task+".>")); err != nil {
		return s.Forget(ctx, task)
	}
	var errs []error
	for _, name := range big {
		if err := s.objs.Store().Delete(ctx, name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			errs = append(errs, err)
		}
	}
	if ckpt {
		if err := s.objs.Store().Delete(ctx, "ckpt/"+task); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("taskstate: forget %s: %w", task, err)
	}
	return nil
}

// mirrored reports whether anything of task may be in the buckets: its meta (the first thing a
// mirrored session writes) or, when ckpt (a writing task, the only kind checkpointed), a
// checkpoint. One direct look-up each, so a first delivery does not pay Forget's key listing,
// which grows with the bucket.
func (s *State) mirrored(ctx context.Context, task string, ckpt bool) bool {
	if _, err := s.kv.Get(ctx, metaKey(task)); !errors.Is(err, jetstream.ErrKeyNotFound) {
		return true // there, or unknown: forget to be safe
	}
	if !ckpt {
		return false
	}
	_, err := s.objs.Store().GetInfo(ctx, "ckpt/"+task)
	return !errors.Is(err, jetstream.ErrObjectNotFound)
}

// Plan is how a delivered task starts.
type Plan int

const (
	// Fresh starts the child from its task: the first delivery, or a later one with nothing
	// worth resuming.
	Fresh Plan = iota
	// Resume starts the child from its restored transcript and worktree.
	Resume
)

func (p Plan) String() string {
	if p == Resume {
		return "resume"
	}
	return "fresh"
}

// PlanFor decides from what Restore found: the child resumes when its session's meta and at
// least one entry were mirrored (without the meta there is no session to resume, and without
// entries it had not begun). It does not go by the server's delivery count: under load, a task
// redelivered after its holder was SIGKILLed was seen to come back from nats-server 2.9 counted
// as a first delivery, and starting it afresh would run its calls a second time. A task id is the
// child's session id, unique to one dispatch, so mirrored state under it is this task's.
func PlanFor(r Restored) Plan {
	if r.Meta && r.LastSeq > 0 {
		return Resume
	}
	return Fresh
}
