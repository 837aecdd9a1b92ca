package store

import (
	"fmt"
	"testing"
)

func TestRepairCountersAddUpPerModelAndSurviveReopen(t *testing.T) {
	s, dir := openTemp(t)
	adds := []RepairStats{
		{Model: "openai/qwen3-coder", Calls: 4, Repaired: 2, ByKind: map[string]int{"text_format": 2}},
		{Model: "openai/qwen3-coder", Calls: 6, Repaired: 1, ByKind: map[string]int{"arg_alias": 1}},
		{Model: "anthropic/claude-x", Calls: 3},
	}
	for _, a := range adds {
		if err := s.AddRepairs(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Repairs()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Model != "anthropic/claude-x" || got[1].Model != "openai/qwen3-coder" {
		t.Fatalf("models = %+v", got)
	}
	q := got[1]
	if q.Calls != 10 || q.Repaired != 3 || q.ByKind["text_format"] != 2 || q.ByKind["arg_alias"] != 1 {
		t.Fatalf("qwen counters = %+v", q)
	}
	if sessions, err := s.Sessions(); err != nil || len(sessions) != 0 {
		t.Fatalf("counters leak into the session list: %v %v", sessions, err)
	}
}

func TestAddRepairsRejectsAnEmptyModel(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.AddRepairs(RepairStats{Calls: 1}); err == nil {
		t.Fatal("an empty model name was accepted")
	}
}

func TestWireMemoryRemembersRejectsAndCountsQuirksBesideRepairs(t *testing.T) {
	s, dir := openTemp(t)
	if err := s.AddRepairs(RepairStats{Model: "ollama/qwen3", Calls: 2}); err != nil {
		t.Fatal(err)
	}
	for _, add := range [][]string{{"no_usage"}, {"no_usage", "arguments_object"}} {
		if err := s.AddWireQuirks("ollama/qwen3", add); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddWireQuirks("local/only-quirks", []string{"missing_done"}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // remembered once
		if err := s.AddWireReject("http://127.0.0.1:8080/v1", "qwen3", "stream_options"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddWireReject("http://127.0.0.1:8080/v1", "a\x00b", "stream_options"); err == nil {
		t.Error("a model name with NUL was accepted into a key")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fields, err := s.WireRejects("http://127.0.0.1:8080/v1", "qwen3")
	if err != nil || len(fields) != 1 || fields[0] != "stream_options" {
		t.Fatalf("rejects = %v, %v", fields, err)
	}
	if other, _ := s.WireRejects("http://127.0.0.1:8080/v1", "llama3"); len(other) != 0 {
		t.Errorf("another model inherits the rejects: %v", other)
	}
	got, err := s.Repairs()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Model != "local/only-quirks" || got[0].Wire["missing_done"] != 1 {
		t.Fatalf("stats = %+v", got)
	}
	if q := got[1]; q.Calls != 2 || q.Wire["no_usage"] != 2 || q.Wire["arguments_object"] != 1 {
		t.Fatalf("qwen3 = %+v", q)
	}
}

// A session's turn stores its meta and its repair counters in one transaction; sessions doing
// so at once each keep their meta and every count adds up (the shared counters never make
// one's transaction conflict, which would lose its meta).
func TestPutMetaAndRepairsFromConcurrentSessions(t *testing.T) {
	s, dir := openTemp(t)
	const sessions, turns = 4, 25
	errs := make(chan error, sessions)
	for i := range sessions {
		go func() {
			m := &SessionMeta{ID: fmt.Sprintf("s%d", i), Status: "running"}
			for n := range turns {
				m.Turns = n + 1
				if err := s.PutMetaAndRepairs(m, RepairStats{Model: "openai/qwen3", Calls: 2, Repaired: 1, ByKind: map[string]int{"split_call": 1}}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range sessions {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Repairs()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Calls != 2*sessions*turns || got[0].Repaired != sessions*turns || got[0].ByKind["split_call"] != sessions*turns {
		t.Fatalf("counters = %+v, want %d calls", got, 2*sessions*turns)
	}
	for i := range sessions {
		m, err := s.Meta(fmt.Sprintf("s%d", i))
		if err != nil || m.Turns != turns {
			t.Fatalf("meta of s%d = %+v, %v", i, m, err)
		}
	}
	// After a reopen the counters go on from what is stored.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.PutMetaAndRepairs(&SessionMeta{ID: "s0"}, RepairStats{Model: "openai/qwen3", Calls: 1}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Repairs(); err != nil || len(got) != 1 || got[0].Calls != 2*sessions*turns+1 || got[0].ByKind["split_call"] != sessions*turns {
		t.Fatalf("counters after a reopen = %+v, %v", got, err)
	}
	// Empty counters write the meta alone, and a bad model name fails before anything is written.
	m := &SessionMeta{ID: "s9", Status: "running"}
	if err := s.PutMetaAndRepairs(m, RepairStats{}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMetaAndRepairs(&SessionMeta{ID: "s8"}, RepairStats{Calls: 1}); err == nil {
		t.Fatal("counters without a model were accepted")
	}
	if _, err := s.Meta("s8"); err == nil {
		t.Fatal("the meta was stored though its counters were refused")
	}
}

// A turn's last result, its meta and its repair counters are one commit: all stored, the
// counters added to what was stored before, and a bad model refused before anything is.
func TestAppendWithMetaAndRepairs(t *testing.T) {
	s, dir := openTemp(t)
	if err := s.PutMetaAndRepairs(&SessionMeta{ID: "a"}, RepairStats{Model: "m", Calls: 2}); err != nil {
		t.Fatal(err)
	}
	m := &SessionMeta{ID: "a", Turns: 4}
	e := &Entry{Kind: KindToolResult, CallID: "c", Text: "ok"}
	if err := s.AppendWithMetaAndRepairs(m, RepairStats{Model: "m", Calls: 3, ByKind: map[string]int{"json": 1}}, e); err != nil {
		t.Fatal(err)
	}
	if e.Seq != 1 || m.LogSeq != 1 || m.Updated.IsZero() {
		t.Fatalf("entry seq %d, meta log seq %d, updated %v", e.Seq, m.LogSeq, m.Updated)
	}
	if err := s.AppendWithMetaAndRepairs(m, RepairStats{Calls: 1}, &Entry{Kind: KindToolResult}); err == nil {
		t.Fatal("counters without a model were stored")
	}
	s = reopen(t, s, dir)
	if got, err := s.Meta("a"); err != nil || got.Turns != 4 || got.LogSeq != 1 {
		t.Fatalf("meta: %+v, %v", got, err)
	}
	if log, err := s.Log("a"); err != nil || len(log) != 1 {
		t.Fatalf("log: %d entries, %v", len(log), err)
	}
	if r, err := s.Repairs(); err != nil || len(r) != 1 || r[0].Calls != 5 || r[0].ByKind["json"] != 1 {
		t.Fatalf("counters: %+v, %v", r, err)
	}
}
