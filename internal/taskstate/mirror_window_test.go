package taskstate

import (
	"fmt"
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// More entries than one window of asynchronous writes, and a meta written again and again:
// every entry arrives, and the meta that stays is the last one.
func TestMirrorWindowKeepsEveryEntryAndTheLastMeta(t *testing.T) {
	r := newRig(t)
	st := openStore(t)
	host, err := NewHost(r.ctx, r.js, "p1", t.TempDir(), st, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	if _, err := host.Begin(r.ctx, &messages.SpawnTask{ID: "many", Project: "p1", Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	const n = 3*putWindow + 7
	for i := range n {
		must(t, st.Append("many", &store.Entry{Kind: store.KindUser, Text: fmt.Sprint("entry ", i)}))
		must(t, st.PutMeta(&store.SessionMeta{ID: "many", Task: fmt.Sprint("meta ", i)}))
	}
	must(t, host.Mirror.Flush(r.ctx))
	got, err := r.state.Restore(r.ctx, openStore(t), "many")
	if err != nil {
		t.Fatal(err)
	}
	if got.Added != n || got.LastSeq != n || got.Gap || !got.Meta {
		t.Fatalf("restored %+v, want %d entries and the meta", got, n)
	}
	meta, entries, err := r.state.load(r.ctx, "many")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprint("meta ", n-1); meta == nil || meta.Task != want {
		t.Fatalf("the meta that stayed: %+v, want %q", meta, want)
	}
	for i, e := range entries {
		if want := fmt.Sprint("entry ", i); e.Text != want {
			t.Fatalf("entry %d is %q, want %q", i+1, e.Text, want)
		}
	}
}
