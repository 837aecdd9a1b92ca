package store

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLogRoundTrip(t *testing.T) {
	s, dir := openTemp(t)
	at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	in := []*Entry{
		{Kind: KindUser, Text: "fix the test", Time: at},
		{Kind: KindAssistant, Text: "looking", Reasoning: "hmm", Model: "m1",
			Calls: []Call{{ID: "c1", Name: "read", Args: `{"path":"a.go"}`}, {ID: "c2", Name: "bash", Args: `{"cmd":"ls"}`}}},
		{Kind: KindToolResult, CallID: "c1", ToolName: "read", Text: strings.Repeat("x", 40<<10)}, // beyond ValueThreshold
		{Kind: KindToolResult, CallID: "c2", ToolName: "bash", Text: "exit 1", IsError: true},
		{Kind: KindSystem, Event: "permission.denied", Text: "denied", Data: json.RawMessage(`{"tool":"bash"}`)},
		{Kind: KindCompact, Text: "summary", Data: json.RawMessage(`{"upto":4}`)},
	}
	if err := s.Append("s1", in...); err != nil {
		t.Fatalf("Append: %v", err)
	}
	for i, e := range in {
		if e.Seq != uint64(i+1) {
			t.Errorf("entry %d got Seq %d, want %d", i, e.Seq, i+1)
		}
		if e.Time.IsZero() {
			t.Errorf("entry %d has no Time", i)
		}
	}
	if !in[0].Time.Equal(at) {
		t.Errorf("Append replaced a given Time: %v", in[0].Time)
	}
	s = reopen(t, s, dir)
	got, err := s.Log("s1")
	if err != nil {
		t.Fatalf("Log: %v", err)
	}
	if len(got) != len(in) {
		t.Fatalf("Log returned %d entries, want %d", len(got), len(in))
	}
	for i := range in {
		want, _ := json.Marshal(in[i])
		have, _ := json.Marshal(got[i])
		if string(want) != string(have) {
			t.Errorf("entry %d:\n got  %.200s\n want %.200s", i, have, want)
		}
	}
	if other, err := s.Log("unknown"); err != nil || len(other) != 0 {
		t.Errorf("Log(unknown) = %d entries, %v; want none", len(other), err)
	}
}

func TestSeqGapFreeAcrossReopen(t *testing.T) {
	s, dir := openTemp(t)
	appendN := func(s *Store, session string, n int) {
		t.Helper()
		for range n {
			if err := s.Append(session, &Entry{Kind: KindUser}); err != nil {
				t.Fatalf("Append: %v", err)
			}
		}
	}
	appendN(s, "a", 3)
	appendN(s, "b", 300) // several sessions: the last-seq lookup must stay within its own
	appendN(s, "ab", 2)
	s = reopen(t, s, dir)
	appendN(s, "a", 2)
	e := &Entry{Kind: KindUser}
	if err := s.Append("b", e); err != nil || e.Seq != 301 {
		t.Fatalf("Append after reopen: seq %d, %v; want 301", e.Seq, err)
	}
	for session, n := range map[string]int{"a": 5, "b": 301, "ab": 2} {
		assertGapFree(t, s, session, n)
	}
}

// assertGapFree checks session's log holds exactly seqs 1..n.
func assertGapFree(t testing.TB, s *Store, session string, n int) {
	t.Helper()
	log, err := s.Log(session)
	if err != nil {
		t.Fatalf("Log(%s): %v", session, err)
	}
	if len(log) != n {
		t.Fatalf("session %s: %d entries, want %d", session, len(log), n)
	}
	for i, e := range log {
		if e.Seq != uint64(i+1) {
			t.Fatalf("session %s: entry %d has seq %d", session, i, e.Seq)
		}
	}
}

func TestLogFrom(t *testing.T) {
	s, _ := openTemp(t)
	for _, text := range []string{"one", "two", "three"} {
		if err := s.Append("s", &Entry{Kind: KindUser, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		after uint64
		want  string
	}{
		{0, "one two three"},
		{1, "two three"},
		{3, ""},
		{99, ""},
		{^uint64(0), ""},
	}
	for _, tt := range tests {
		got, err := s.LogFrom("s", tt.after)
		if err != nil {
			t.Fatalf("LogFrom(%d): %v", tt.after, err)
		}
		var texts []string
		for _, e := range got {
			texts = append(texts, e.Text)
		}
		if strings.Join(texts, " ") != tt.want {
			t.Errorf("LogFrom(%d) = %q, want %q", tt.after, texts, tt.want)
		}
	}
}

func TestAppendWithMeta(t *testing.T) {
	s, _ := openTemp(t)
	m := &SessionMeta{ID: "s1", Status: "running", Turns: 1}
	if err := s.AppendWithMeta(m, &Entry{Kind: KindUser, Text: "hi"}, &Entry{Kind: KindAssistant, Text: "hello"}); err != nil {
		t.Fatalf("AppendWithMeta: %v", err)
	}
	got, err := s.Meta("s1")
	if err != nil || got.Turns != 1 || !got.Updated.Equal(m.Updated) {
		t.Fatalf("Meta = %+v, %v", got, err)
	}
	assertGapFree(t, s, "s1", 2)
}

// TestAppendWithMetaIsAtomic makes the second entry unencodable: neither the first entry nor
// the meta may be stored, the entries keep their old Seq, and the next append gets seq 1.
func TestAppendWithMetaIsAtomic(t *testing.T) {
	s, _ := openTemp(t)
	good := &Entry{Kind: KindUser, Text: "kept?"}
	bad := &Entry{Kind: KindSystem, Data: json.RawMessage(`{not json`)}
	m := &SessionMeta{ID: "s1", Status: "running", Turns: 7}
	if err := s.AppendWithMeta(m, good, bad); err == nil {
		t.Fatal("AppendWithMeta with an unencodable entry succeeded")
	}
	if good.Seq != 0 || bad.Seq != 0 || !good.Time.IsZero() || !m.Updated.IsZero() {
		t.Errorf("failed append left changes behind: good %+v, bad %+v, meta %+v", good, bad, m)
	}
	if _, err := s.Meta("s1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("meta of a failed AppendWithMeta is stored: err = %v", err)
	}
	assertGapFree(t, s, "s1", 0)
	if err := s.Append("s1", good); err != nil || good.Seq != 1 {
		t.Fatalf("Append after a failed one: seq %d, %v; want 1", good.Seq, err)
	}
}

func TestAppendTooLargeDoesNotAdvance(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.Append("s", &Entry{Kind: KindUser}); err != nil {
		t.Fatal(err)
	}
	huge := &Entry{Kind: KindToolResult, Text: strings.Repeat("x", 17<<20)} // over ValueLogFileSize
	if err := s.Append("s", huge); err == nil {
		t.Fatal("Append of a 17 MiB entry succeeded")
	}
	e := &Entry{Kind: KindUser}
	if err := s.Append("s", e); err != nil || e.Seq != 2 {
		t.Fatalf("Append after failure: seq %d, %v; want 2", e.Seq, err)
	}
	assertGapFree(t, s, "s", 2)
}

func TestConcurrentAppends(t *testing.T) {
	s, _ := openTemp(t)
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*2)
	for w := range writers {
		session := []string{"x", "y"}[w%2]
		wg.Go(func() {
			for range each {
				if err := s.Append(session, &Entry{Kind: KindUser}, &Entry{Kind: KindSystem}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Append: %v", err)
	}
	assertGapFree(t, s, "x", writers/2*each*2)
	assertGapFree(t, s, "y", writers/2*each*2)
}

// TestHealedLogReloadsClean is the resume path: heal, append the synthetic results, reload.
func TestHealedLogReloadsClean(t *testing.T) {
	s, dir := openTemp(t)
	if err := s.Append("s", &Entry{Kind: KindUser, Text: "go"},
		&Entry{Kind: KindAssistant, Calls: []Call{{ID: "c1", Name: "bash"}, {ID: "c2", Name: "edit"}}},
		&Entry{Kind: KindToolResult, CallID: "c1", ToolName: "bash", Text: "ok"}); err != nil {
		t.Fatal(err)
	}
	log, _ := s.Log("s")
	view, synthetic := Heal(log)
	if len(synthetic) != 1 {
		t.Fatalf("got %d synthetic entries, want 1", len(synthetic))
	}
	if err := s.Append("s", synthetic...); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	log, _ = s.Log("s")
	again, more := Heal(log)
	if len(more) != 0 || render(again) != render(view) {
		t.Errorf("reloaded log heals to %s (+%d), want %s", render(again), len(more), render(view))
	}
}

// LogPage reads a page at a time: about maxBytes of stored values, at least one entry, and
// says whether more follow.
func TestLogPage(t *testing.T) {
	s, _ := openTemp(t)
	big := strings.Repeat("x", 1000)
	for i := 0; i < 10; i++ {
		if err := s.Append("s", &Entry{Kind: KindUser, Text: big}); err != nil {
			t.Fatal(err)
		}
	}
	var seqs []uint64
	var after uint64
	for pages := 0; ; pages++ {
		page, more, err := s.LogPage("s", after, 2500)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 || len(page) > 3 {
			t.Fatalf("page %d holds %d entries", pages, len(page))
		}
		for _, e := range page {
			seqs = append(seqs, e.Seq)
		}
		after = page[len(page)-1].Seq
		if !more {
			break
		}
	}
	if len(seqs) != 10 || seqs[0] != 1 || seqs[9] != 10 {
		t.Fatalf("pages gave seqs %v", seqs)
	}
	if page, more, _ := s.LogPage("s", 0, 1); len(page) != 1 || !more {
		t.Errorf("a page smaller than one entry must still hold one: %d entries, more %v", len(page), more)
	}
}
