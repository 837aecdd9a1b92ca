package taskstate

import (
	"errors"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// A task that started fresh is forgotten without listing keys (ForgetWritten): its keys, its
// oversized entry's object and its checkpoint go; another task's state stays.
func TestDoneForgetsAFreshTaskWithoutListing(t *testing.T) {
	r := newRig(t)
	st := openStore(t)
	host, err := NewHost(r.ctx, r.js, "p1", t.TempDir(), st, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	var runs []*Run
	for _, id := range []string{"gone", "kept"} {
		run, err := host.Begin(r.ctx, &messages.SpawnTask{ID: id, Project: "p1", Attempt: 1})
		if err != nil || run.Plan != Fresh {
			t.Fatalf("begin %s: %+v, %v", id, run, err)
		}
		runs = append(runs, run)
		must(t, st.PutMeta(&store.SessionMeta{ID: id, Task: "look"}))
		must(t, st.Append(id, &store.Entry{Kind: store.KindUser, Text: "look"}))
		must(t, st.Append(id, &store.Entry{Kind: store.KindAssistant, Text: strings.Repeat("x", maxValue+1)}))
	}
	must(t, host.Mirror.Flush(r.ctx))
	big := bigEntryName("gone", 2)
	if _, err := r.objs.Store().GetInfo(r.ctx, big); err != nil {
		t.Fatalf("the oversized entry was not kept as an object: %v", err)
	}
	if _, err := r.objs.PutBytes(r.ctx, "ckpt/gone", []byte("a checkpoint")); err != nil {
		t.Fatal(err)
	}
	must(t, host.Release(r.ctx, runs[0]))
	must(t, host.Done(r.ctx, runs[0]))
	must(t, r.state.ForgetWritten(r.ctx, "gone", nil, true)) // its checkpoint too (a writing task's)

	keys, err := r.state.kv.ListKeys(r.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for k := range keys.Keys() {
		left = append(left, k)
	}
	for _, k := range left {
		if strings.HasPrefix(k, "gone.") {
			t.Errorf("key %s of a forgotten task is left", k)
		}
	}
	if len(left) != 3 { // kept.meta, kept.e.1, kept.e.2
		t.Errorf("the other task's keys: %v", left)
	}
	for _, name := range []string{big, "ckpt/gone"} {
		if _, err := r.objs.Store().GetInfo(r.ctx, name); !errors.Is(err, jetstream.ErrObjectNotFound) {
			t.Errorf("object %s of a forgotten task: %v", name, err)
		}
	}
	if _, err := r.objs.Store().GetInfo(r.ctx, bigEntryName("kept", 2)); err != nil {
		t.Errorf("the other task's oversized entry: %v", err)
	}
	if r.state.mirrored(r.ctx, "gone", true) {
		t.Error("a forgotten task still reads as mirrored")
	}
}
