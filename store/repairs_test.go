package store

import (
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
