package store

import (
	"testing"
)

// TestCommitHook: the hook hears each committed append and meta write in order, with seqs
// assigned, and nothing of a write that failed.
func TestCommitHook(t *testing.T) {
	s, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	type heard struct {
		session string
		seqs    []uint64
		meta    bool
	}
	var got []heard
	s.SetCommitHook(func(session string, entries []*Entry, meta *SessionMeta) {
		h := heard{session: session, meta: meta != nil}
		for _, e := range entries {
			h.seqs = append(h.seqs, e.Seq)
		}
		got = append(got, h)
	})
	if err := s.Append("a", &Entry{Kind: KindUser, Text: "hi"}, &Entry{Kind: KindAssistant, Text: "yo"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendWithMeta(&SessionMeta{ID: "a"}, &Entry{Kind: KindUser, Text: "more"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMeta(&SessionMeta{ID: "b"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("bad/id", &Entry{Kind: KindUser}); err == nil {
		t.Fatal("a bad session id was accepted")
	}
	want := []heard{{"a", []uint64{1, 2}, false}, {"a", []uint64{3}, true}, {"b", nil, true}}
	if len(got) != len(want) {
		t.Fatalf("heard %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].session != want[i].session || got[i].meta != want[i].meta || len(got[i].seqs) != len(want[i].seqs) {
			t.Fatalf("heard %+v, want %+v", got, want)
		}
		for j := range want[i].seqs {
			if got[i].seqs[j] != want[i].seqs[j] {
				t.Fatalf("heard %+v, want %+v", got, want)
			}
		}
	}
	s.SetCommitHook(nil)
	if err := s.Append("a", &Entry{Kind: KindUser, Text: "quiet"}); err != nil || len(got) != 3 {
		t.Fatalf("a removed hook still heard: %d calls, %v", len(got), err)
	}
}
