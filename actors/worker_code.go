package actors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/taskstate"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// workerCode is a worker's side of what travels with a task (docs/WORKERS.md): the code, as
// a checkout of the parent's commit under the repository cache (internal/gitship), and the
// child's state, mirrored to the project's key-value bucket as it runs and restored on a later
// delivery so the child resumes (internal/taskstate). Its calls run on a task's slot
// goroutine, never on an actor.
type workerCode struct {
	ns     string
	cache  *gitship.Cache
	objs   *gitship.Objects
	state  *taskstate.State
	mirror *taskstate.Mirror
	store  *store.Store
}

func openWorkerCode(ctx context.Context, nc *nats.Conn, ns, repoCache string, replicas int, st *store.Store, log *slog.Logger) (*workerCode, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	wc := &workerCode{ns: ns, store: st}
	if wc.cache, err = gitship.NewCache(repoCache); err != nil {
		return nil, err
	}
	if wc.objs, err = gitship.OpenObjects(ctx, js, ns, replicas); err != nil {
		return nil, err
	}
	if wc.state, err = taskstate.Open(ctx, js, ns, wc.objs, replicas); err != nil {
		return nil, err
	}
	wc.mirror = wc.state.NewMirror(wc.cache, func(err error) { log.Warn("mirror a task's state", "err", err) })
	st.SetCommitHook(wc.mirror.Hook())
	return wc, nil
}

// close stops mirroring (what is queued is written first).
func (wc *workerCode) close() {
	wc.store.SetCommitHook(nil)
	wc.mirror.Close()
}

// taskPrep is a task made ready to run: where its child works and whether it resumes.
type taskPrep struct {
	dir    string
	co     *gitship.Checkout // nil: the task runs in a directory it names (no code shipped)
	resume bool
}

// prepare checks out the task's code and restores its state from an earlier delivery. A task
// that ships no code (no base commit) runs in the workspace its start names, which must exist
// here: a parent on the same machine or a shared file system.
func (wc *workerCode) prepare(ctx context.Context, t *messages.SpawnTask) (taskPrep, error) {
	var p taskPrep
	if t.Repo.Base == "" {
		if fi, err := os.Stat(t.Start.Workspace); err != nil || !fi.IsDir() {
			return p, fmt.Errorf("the task ships no code and its workspace %q is not on this machine", t.Start.Workspace)
		}
		p.dir = t.Start.Workspace
	} else {
		co, err := wc.cache.Checkout(ctx, wc.ns, t.ID, &t.Repo, wc.objs)
		if err != nil {
			return p, err
		}
		p.co, p.dir = co, co.Path
	}
	restored, err := wc.state.Restore(ctx, wc.store, t.ID)
	if err != nil {
		return p, err
	}
	p.resume = taskstate.PlanFor(t.Attempt, restored) == taskstate.Resume
	if p.resume && p.co != nil {
		if _, err := wc.cache.Restore(ctx, p.co, wc.objs); err != nil {
			return p, err
		}
	}
	wc.mirror.Track(t.ID, p.co) // after Restore: restored entries are not written back
	return p, nil
}

// settle runs once the child reported: its mirrored state is flushed and no longer tracked,
// and a writing child's branch is sent back (as a bundle in the object store) into r.
func (wc *workerCode) settle(ctx context.Context, t *messages.SpawnTask, p taskPrep, r *messages.AgentResult) {
	err := wc.mirror.Flush(ctx)
	wc.mirror.Untrack(t.ID)
	if p.co != nil && t.Writes && r.Status == messages.AgentDone {
		res, rerr := wc.cache.Return(ctx, p.co, wc.objs, gitship.ReturnOptions{Message: "troupe: " + r.Handle})
		if rerr == nil {
			r.Branch, r.Bundle, r.DiffStat = res.Branch, res.Bundle, res.DiffStat
		}
		err = errors.Join(err, rerr)
	}
	if err != nil {
		r.Error = joinErr(r.Error, "send the work back: "+err.Error())
	}
}

// forget drops the task's checkout once its result is acknowledged, and its mirrored state
// unless it wrote: a writing child's branch bundle lives beside its state in the object store
// until the parent imported it, so the parent forgets that task (taskstate.Forget).
func (wc *workerCode) forget(ctx context.Context, t *messages.SpawnTask, p taskPrep) error {
	var err error
	if !t.Writes {
		err = wc.state.Forget(ctx, t.ID)
	}
	if p.co != nil {
		err = errors.Join(err, wc.cache.Remove(ctx, p.co))
	}
	return err
}

// abandon stops mirroring a task handed back; its checkout stays for a later delivery here.
func (wc *workerCode) abandon(t *messages.SpawnTask) { wc.mirror.Untrack(t.ID) }

func joinErr(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
