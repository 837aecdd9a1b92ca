package taskstate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/store"
)

func TestPlanFor(t *testing.T) {
	for _, c := range []struct {
		r    Restored
		want Plan
	}{
		{Restored{}, Fresh},                        // died before anything was mirrored
		{Restored{Meta: true}, Fresh},              // created, but no entry yet
		{Restored{LastSeq: 3}, Fresh},              // entries without a session
		{Restored{Meta: true, LastSeq: 3}, Resume}, // whatever count the server gave
		{Restored{Meta: true, LastSeq: 1, Gap: true}, Resume},
	} {
		if got := PlanFor(c.r); got != c.want {
			t.Errorf("PlanFor(%+v) = %s, want %s", c.r, got, c.want)
		}
	}
}

type rig struct {
	ctx   context.Context
	js    jetstream.JetStream
	objs  *gitship.Objects
	state *State
}

func newRig(t *testing.T) *rig {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*time.Minute))
	t.Cleanup(cancel)
	c := natstest.Start(t, natstest.Options{})
	nc, err := nats.Connect(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := gitship.OpenObjects(ctx, js, "p1", 1)
	if err != nil {
		t.Fatal(err)
	}
	state, err := Open(ctx, js, "p1", objs, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &rig{ctx: ctx, js: js, objs: objs, state: state}
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestResumeOnAnotherWorker: a child's transcript and worktree, mirrored as it ran on a worker
// that then died, come back on another worker; the call cut off mid-way is answered as
// interrupted by the store's resume path, and the write made before it is in the worktree.
func TestResumeOnAnotherWorker(t *testing.T) {
	r := newRig(t)
	parent := t.TempDir()
	git(t, parent, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(parent, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, parent, "add", "-A")
	git(t, parent, "commit", "-q", "-m", "first")
	repo, _, err := gitship.Prepare(r.ctx, parent, "task-1", r.objs, gitship.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// The first worker runs the child.
	deadStore := openStore(t)
	deadCache, _ := gitship.NewCache(t.TempDir())
	co, err := deadCache.Checkout(r.ctx, "p1", "task-1", repo, r.objs)
	if err != nil {
		t.Fatal(err)
	}
	var failures []error
	m := r.state.NewMirror(deadCache, func(err error) { failures = append(failures, err) })
	m.Track("task-1", co)
	deadStore.SetCommitHook(m.Hook())
	if err := deadStore.PutMeta(&store.SessionMeta{ID: "task-1", Task: "write b.txt", Status: "running"}); err != nil {
		t.Fatal(err)
	}
	must(t, deadStore.Append("task-1", &store.Entry{Kind: store.KindUser, Text: "write b.txt, then run the tests"}))
	must(t, deadStore.Append("task-1", &store.Entry{Kind: store.KindAssistant,
		Calls: []store.Call{{ID: "c1", Name: "write", Args: `{"path":"b.txt"}`}}}))
	if err := os.WriteFile(filepath.Join(co.Path, "b.txt"), []byte("written by the child\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, deadStore.Append("task-1", &store.Entry{Kind: store.KindToolResult, CallID: "c1", ToolName: "write", Text: "wrote b.txt"}))
	huge := strings.Repeat("x", maxValue+10)
	must(t, deadStore.Append("task-1", &store.Entry{Kind: store.KindAssistant, Text: huge,
		Calls: []store.Call{{ID: "c2", Name: "bash", Args: `{"command":"go test ./..."}`}}}))
	// The worker dies while c2 runs: no result for it.
	if err := m.Flush(r.ctx); err != nil {
		t.Fatal(err)
	}
	m.Close()
	if len(failures) > 0 {
		t.Fatalf("mirror failures: %v", failures)
	}

	// Another worker takes the redelivery.
	st := openStore(t)
	res, err := r.state.Restore(r.ctx, st, "task-1")
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 4 || res.LastSeq != 4 || !res.Meta || res.Gap || PlanFor(res) != Resume {
		t.Fatalf("restored %+v", res)
	}
	log, err := st.Log("task-1")
	if err != nil {
		t.Fatal(err)
	}
	if log[3].Text != huge || log[2].CallID != "c1" {
		t.Fatal("the restored log differs from the mirrored one")
	}
	view, synthetic := store.Heal(log)
	if len(synthetic) != 1 || synthetic[0].CallID != "c2" || synthetic[0].Text != store.InterruptedText || len(view) != 5 {
		t.Fatalf("the cut-off call was not answered as interrupted: %+v", synthetic)
	}
	if meta, err := st.Meta("task-1"); err != nil || meta.Task != "write b.txt" {
		t.Fatalf("meta %+v, %v", meta, err)
	}
	cache, _ := gitship.NewCache(t.TempDir())
	co2, err := cache.Checkout(r.ctx, "p1", "task-1", repo, r.objs)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := cache.Restore(r.ctx, co2, r.objs); !ok || err != nil {
		t.Fatalf("worktree restore: %v, %v", ok, err)
	}
	if b, err := os.ReadFile(filepath.Join(co2.Path, "b.txt")); err != nil || string(b) != "written by the child\n" {
		t.Fatalf("b.txt after restore: %q, %v", b, err)
	}

	// Restoring again adds nothing; a store that already holds part of the log gets the rest.
	if again, err := r.state.Restore(r.ctx, st, "task-1"); err != nil || again.Added != 0 {
		t.Fatalf("second restore: %+v, %v", again, err)
	}
	partial := openStore(t)
	must(t, partial.Append("task-1", log[0], log[1]))
	if got, err := r.state.Restore(r.ctx, partial, "task-1"); err != nil || got.Added != 2 || got.LastSeq != 4 {
		t.Fatalf("restore onto a partial log: %+v, %v", got, err)
	}

	// A gap in the mirror stops the restore before it.
	if err := r.state.kv.Purge(r.ctx, entryKey("task-1", 3)); err != nil {
		t.Fatal(err)
	}
	gapped, err := r.state.Restore(r.ctx, openStore(t), "task-1")
	if err != nil || gapped.LastSeq != 2 || !gapped.Gap {
		t.Fatalf("restore across a gap: %+v, %v", gapped, err)
	}

	// Forget leaves nothing to resume.
	if err := r.state.Forget(r.ctx, "task-1"); err != nil {
		t.Fatal(err)
	}
	gone, err := r.state.Restore(r.ctx, openStore(t), "task-1")
	if err != nil || gone.Meta || gone.LastSeq != 0 {
		t.Fatalf("restore after forget: %+v, %v", gone, err)
	}
	if _, err := r.objs.GetBytes(r.ctx, bigEntryName("task-1", 4)); !errors.Is(err, gitship.ErrMissing) {
		t.Fatalf("the oversized entry's object outlived Forget: %v", err)
	}
	if ok, _ := cache.Restore(r.ctx, co2, r.objs); ok {
		t.Fatal("the checkpoint outlived Forget")
	}
}

// TestMirrorOnlyTracked: sessions the worker does not track (or no longer tracks) stay local.
func TestMirrorOnlyTracked(t *testing.T) {
	r := newRig(t)
	st := openStore(t)
	m := r.state.NewMirror(nil, nil)
	defer m.Close()
	st.SetCommitHook(m.Hook())
	m.Track("kept", nil)
	must(t, st.PutMeta(&store.SessionMeta{ID: "kept"}))
	must(t, st.PutMeta(&store.SessionMeta{ID: "local"}))
	must(t, st.Append("kept", &store.Entry{Kind: store.KindUser, Text: "one"}))
	must(t, st.Append("local", &store.Entry{Kind: store.KindUser, Text: "one"}))
	m.Untrack("kept")
	must(t, st.Append("kept", &store.Entry{Kind: store.KindUser, Text: "after untrack"}))
	if err := m.Flush(r.ctx); err != nil {
		t.Fatal(err)
	}
	for task, want := range map[string]uint64{"kept": 1, "local": 0} {
		got, err := r.state.Restore(r.ctx, openStore(t), task)
		if err != nil || got.LastSeq != want {
			t.Errorf("%s: restored %+v, %v; want last seq %d", task, got, err, want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestMirrorWithTheBusDown: writes that cannot reach the server are reported, Flush is bounded
// by its context, and Close returns.
func TestMirrorWithTheBusDown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*time.Minute))
	defer cancel()
	c := natstest.Start(t, natstest.Options{})
	nc, err := nats.Connect(c.URL(), nats.MaxReconnects(-1))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	objs, err := gitship.OpenObjects(ctx, js, "p2", 1)
	if err != nil {
		t.Fatal(err)
	}
	state, err := Open(ctx, js, "p2", objs, 1)
	if err != nil {
		t.Fatal(err)
	}
	failed := make(chan error, 16)
	m := state.NewMirror(nil, func(err error) {
		select {
		case failed <- err:
		default:
		}
	})
	m.putRetry, m.writeTimeout = time.Millisecond, 300*time.Millisecond
	st := openStore(t)
	st.SetCommitHook(m.Hook())
	m.Track("t", nil)
	c.Kill(0)
	must(t, st.Append("t", &store.Entry{Kind: store.KindUser, Text: "lost while the bus is down"}))
	select {
	case err := <-failed:
		if !strings.Contains(err.Error(), "mirror t.e.") {
			t.Fatalf("failure report: %v", err)
		}
	case <-time.After(testwait.Scale(time.Minute)):
		t.Fatal("a write that could not reach the server was never reported")
	}
	short, cancelShort := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancelShort()
	must(t, st.Append("t", &store.Entry{Kind: store.KindUser, Text: "queued"}))
	if err := m.Flush(short); err == nil {
		t.Log("flush finished within 50ms") // possible only if the write failed fast
	}
	for i := range 20 {
		must(t, st.Append("t", &store.Entry{Kind: store.KindUser, Text: fmt.Sprint("queued ", i)}))
	}
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(testwait.Scale(30 * time.Second)):
		t.Fatal("Close hung with the bus down and writes queued")
	}
}
