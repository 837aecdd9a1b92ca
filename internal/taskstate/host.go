package taskstate

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// Host is a worker's side of the code and state of its tasks, in one place: its repository
// cache, the project's buckets, and the mirror hooked to the worker's store. Its methods do
// disk, git and network work: call them off any actor (the task's slot goroutine).
type Host struct {
	Project string
	Cache   *gitship.Cache
	Objects *gitship.Objects
	State   *State
	Mirror  *Mirror
	store   *store.Store
}

// NewHost opens the project's buckets and the repository cache at cacheDir, and hooks the
// mirror to st (the worker's store); report hears mirror failures. Close unhooks it.
func NewHost(ctx context.Context, js jetstream.JetStream, project, cacheDir string, st *store.Store, replicas int, report func(error)) (*Host, error) {
	cache, err := gitship.NewCache(cacheDir)
	if err != nil {
		return nil, err
	}
	objs, err := gitship.OpenObjects(ctx, js, project, replicas)
	if err != nil {
		return nil, err
	}
	state, err := Open(ctx, js, project, objs, replicas)
	if err != nil {
		return nil, err
	}
	h := &Host{Project: project, Cache: cache, Objects: objs, State: state, store: st}
	h.Mirror = state.NewMirror(cache, report)
	st.SetCommitHook(h.Mirror.Hook())
	return h, nil
}

// Close unhooks the mirror and writes what it has queued.
func (h *Host) Close() {
	h.store.SetCommitHook(nil)
	h.Mirror.Close()
}

// Run is one delivery of a task on this worker.
type Run struct {
	Task *messages.SpawnTask
	// Dir is the child's workspace: the task's worktree; "" when the task carries no code
	// (Repo.Base empty), and the worker uses the workspace the start names.
	Dir string
	// Plan says how the child starts. Resume: start its session with Resume set and no Task
	// (its log, restored, already holds the task; the resume path answers cut-off calls).
	Plan     Plan
	Restored Restored
	co       *gitship.Checkout
	shared   bool // co is the read-only tasks' shared worktree (gitship.CheckoutShared)
}

// Begin prepares a delivered task: its worktree (base, the parent's uncommitted changes) and,
// on a later delivery, the transcript and worktree an earlier attempt left, then mirrors the
// child from here on.
func (h *Host) Begin(ctx context.Context, t *messages.SpawnTask) (*Run, error) {
	r := &Run{Task: t}
	mirrored := h.State.mirrored(ctx, t.ID, t.Writes)
	if t.Attempt > 1 || mirrored {
		var err error
		if r.Restored, err = h.State.Restore(ctx, h.store, t.ID); err != nil {
			return nil, err
		}
		r.Plan = PlanFor(r.Restored)
	}
	if r.Plan == Fresh && mirrored { // a start that left no entry: clear it, then begin afresh
		if err := h.State.Forget(ctx, t.ID); err != nil {
			return nil, err
		}
	}
	if t.Repo.Base != "" && !t.Writes {
		// A task that may not write reads the worktree its start's read-only tasks share; it
		// has no checkpoint to restore, and none is taken (Track with no checkout).
		co, err := h.Cache.CheckoutShared(ctx, h.Project, &t.Repo, h.Objects)
		if err != nil {
			return nil, err
		}
		r.co, r.Dir, r.shared = co, co.Path, true
		h.Mirror.Track(t.ID, nil)
		return r, nil
	}
	if t.Repo.Base != "" {
		co, err := h.Cache.Checkout(ctx, h.Project, t.ID, &t.Repo, h.Objects)
		if err != nil {
			return nil, err
		}
		if r.Plan == Resume {
			if _, err := h.Cache.Restore(ctx, co, h.Objects); err != nil {
				return nil, err
			}
		}
		r.co, r.Dir = co, co.Path
	}
	h.Mirror.Track(t.ID, r.co)
	return r, nil
}

// Finish completes res before the worker publishes it: the mirror is flushed, and a writing
// child's work goes back (res.Branch, res.DiffStat, res.Bundle). A branch that could not be
// sent is said in res.Error rather than lost silently; the worktree stays until Release.
func (h *Host) Finish(ctx context.Context, r *Run, res *messages.AgentResult) {
	if err := h.Mirror.Flush(ctx); err != nil && res != nil && res.Error == "" {
		res.Error = err.Error()
	}
	if r.co == nil || res == nil || !r.Task.Writes {
		return
	}
	msg := "troupe: " + r.Task.ID
	if res.Handle != "" {
		msg = "troupe: " + res.Handle
	}
	// A task whose base came from the shared remote sends its work back there too.
	out, err := h.Cache.Return(ctx, r.co, h.Objects, gitship.ReturnOptions{Message: msg, PushURL: r.Task.Repo.URL})
	if err != nil {
		res.Error = joinErr(res.Error, fmt.Sprintf("the child's work could not be sent back: %v", err))
		return
	}
	res.Branch, res.DiffStat, res.Bundle = out.Branch, out.DiffStat, out.Bundle
}

// Release stops mirroring the task and removes its worktree (the task's slot is done with it,
// whether the result was published or the task handed back).
func (h *Host) Release(ctx context.Context, r *Run) error {
	h.Mirror.Untrack(r.Task.ID)
	if r.co == nil {
		return nil
	}
	if r.shared {
		return h.Cache.ReleaseShared(ctx, r.co)
	}
	return h.Cache.Remove(ctx, r.co)
}

// Done forgets the task's transcript, checkpoint, patch and inherited context once its result
// is acked: no later delivery can come. What went back (its branch, a whole result too large
// for the bus) stays until the parent has it (gitship.Objects.Forget).
func (h *Host) Done(ctx context.Context, r *Run) error {
	if err := h.Mirror.Flush(ctx); err != nil {
		return err
	}
	big := h.Mirror.takeBig(r.Task.ID)
	var err error
	if r.Plan == Fresh { // all of its state is this run's: this Mirror knows what it wrote
		err = h.State.ForgetWritten(ctx, r.Task.ID, big, r.co != nil && !r.shared)
	} else {
		err = h.State.Forget(ctx, r.Task.ID)
	}
	return errors.Join(err, h.forgetInputs(ctx, r.Task))
}

// forgetInputs deletes the task's patch and inherited context when they came through the
// object store (most tasks carry them inline, and cost no request here).
func (h *Host) forgetInputs(ctx context.Context, t *messages.SpawnTask) error {
	var names []string
	if t.Repo.Patch != nil && t.Repo.Patch.Ref != nil {
		names = append(names, t.Repo.Patch.Ref.Name)
	}
	if t.Inherited != nil && t.Inherited.Ref != nil {
		names = append(names, t.Inherited.Ref.Name)
	}
	if len(names) == 0 {
		return nil
	}
	return h.Objects.Delete(ctx, names...)
}

func joinErr(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
