package main

import (
	"math/rand"
	"testing"
)

// A persona keeps its habits: every new step is written with one of them, and after an error
// it repeats the failed form only as often as its stickiness says.
func TestPersonaIsConsistent(t *testing.T) {
	none := newPersona(0, 1, rand.New(rand.NewSource(1)))
	if len(none.habits) != 0 || none.loops || none.next(false, "") != "" {
		t.Fatalf("a persona drawn at rate 0 has habits: %+v", none)
	}
	all := newPersona(1, 1, rand.New(rand.NewSource(1)))
	if len(all.habits) != len(families)-1 || !all.loops {
		t.Fatalf("a persona drawn at rate 1 lacks habits: %+v", all)
	}
	one := &persona{habits: []string{"arg_alias"}, sticky: 1, rng: rand.New(rand.NewSource(1))}
	for range 5 {
		if got := one.next(false, ""); got != "arg_alias" {
			t.Fatalf("new step written as %q, want its habit arg_alias", got)
		}
	}
	if got := one.next(true, "arg_alias"); got != "arg_alias" {
		t.Errorf("stickiness 1 corrected the mistake (%q)", got)
	}
	one.sticky = 0
	if got := one.next(true, "arg_alias"); got != "" {
		t.Errorf("stickiness 0 repeated the mistake (%q)", got)
	}
}

// The loop habit re-sends the previous call once per step, never on the first turn.
func TestPersonaLoopsOncePerStep(t *testing.T) {
	p := &persona{loops: true, sticky: 0, rng: rand.New(rand.NewSource(1))}
	if got := p.next(false, "-"); got != "" {
		t.Fatalf("first turn: %q, want a clean call", got)
	}
	if got := p.next(false, ""); got != "loop" {
		t.Fatalf("new step: %q, want loop", got)
	}
	if got := p.next(false, "-"); got != "" {
		t.Fatalf("after the loop: %q, want the step's call", got)
	}
}

func TestEvidenceStickinessIsTheShareOfRepeats(t *testing.T) {
	share, repeated, total := evidenceStickiness()
	if total != len(stickinessEvidence) || share != float64(repeated)/float64(total) || share <= 0 || share > 1 {
		t.Errorf("stickiness %v from %d of %d", share, repeated, total)
	}
}
