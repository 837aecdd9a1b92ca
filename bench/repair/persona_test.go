package main

import (
	"encoding/json"
	"math/rand"
	"testing"
)

var (
	readStep = Step{Name: "read_file", Args: json.RawMessage(`{"path":"a.txt"}`)}
	goEdit   = Step{Name: "edit_file", Args: json.RawMessage(`{"path":"a.go","old_string":"1","new_string":"2"}`)}
)

func contextOf(s Step) callContext { return callContext{step: s, args: decodeArgs(s)} }

// A persona keeps its habits: one variant per family, every new step written with one of the
// habits that fit it, and after an error the failed form repeated only as often as its
// stickiness says.
func TestPersonaIsConsistent(t *testing.T) {
	none := newPersona(0, 1, rand.New(rand.NewSource(1)))
	if len(none.habits) != 0 || none.loops || !none.next(contextOf(readStep)).clean() {
		t.Fatalf("a persona drawn at rate 0 has habits: %+v", none)
	}
	for seed := range int64(20) {
		all := newPersona(1, 1, rand.New(rand.NewSource(seed)))
		if len(all.habits) != len(families)-1 || !all.loops {
			t.Fatalf("a persona drawn at rate 1 lacks habits: %+v", all)
		}
		for _, h := range all.habits {
			if vs := variants[h.family]; len(vs) > 0 && h.variant == "" || len(vs) == 0 && h.variant != "" {
				t.Errorf("habit %+v: a family with variants has exactly one", h)
			}
		}
	}
	one := &persona{habits: []mistake{{"args", "alias"}, {"syntax_error", ""}}, sticky: 1, rng: rand.New(rand.NewSource(1))}
	for range 5 {
		if got := one.next(contextOf(readStep)); got != (mistake{"args", "alias"}) {
			t.Fatalf("a read written as %+v, want its only habit that fits a read, args/alias", got)
		}
	}
	seen := map[mistake]bool{}
	for range 40 {
		seen[one.next(contextOf(goEdit))] = true
	}
	if len(seen) != 2 {
		t.Errorf("a Go edit was written as %v, want both habits", seen)
	}
	retry := contextOf(readStep)
	retry.retry, retry.last = true, mistake{"args", "alias"}
	if got := one.next(retry); got != retry.last {
		t.Errorf("stickiness 1 corrected the mistake (%+v)", got)
	}
	one.sticky = 0
	if got := one.next(retry); !got.clean() {
		t.Errorf("stickiness 0 repeated the mistake (%+v)", got)
	}
}

// The loop habit re-sends the previous call once per step, never on the first call nor while
// fixing a reported syntax error.
func TestPersonaLoopsOncePerStep(t *testing.T) {
	p := &persona{loops: true, sticky: 0, rng: rand.New(rand.NewSource(1))}
	c := contextOf(readStep)
	c.first = true
	if got := p.next(c); !got.clean() {
		t.Fatalf("first call: %+v, want a clean call", got)
	}
	c.first = false
	if got := p.next(c); got != loopMistake {
		t.Fatalf("new step: %+v, want loop", got)
	}
	if got := p.next(c); !got.clean() {
		t.Fatalf("after the loop: %+v, want the step's call", got)
	}
	c.fixing = true
	if got := p.next(c); !got.clean() {
		t.Fatalf("while fixing: %+v, want the fix", got)
	}
}

// The i.i.d. model only makes mistakes that fit the call: no coercion without a number, no
// syntax error on a read, no loop before the first call.
func TestIIDNoiseFitsTheCall(t *testing.T) {
	n := &iidNoise{rate: 1, rng: rand.New(rand.NewSource(3))}
	c := contextOf(readStep)
	c.first = true
	families := map[string]bool{}
	for range 500 {
		m := n.next(c)
		families[m.family] = true
		if m.family == "loop" || m.family == "syntax_error" || m.variant == "coercion" {
			t.Fatalf("%+v made on a first read without numbers", m)
		}
		if m.clean() {
			t.Fatal("rate 1 made a clean call")
		}
	}
	if len(families) != 4 {
		t.Errorf("families made on a read: %v, want text, reasoning_call, args, tool_name", families)
	}
	if got := (&iidNoise{rate: 0, rng: rand.New(rand.NewSource(3))}).next(c); !got.clean() {
		t.Errorf("rate 0 made %+v", got)
	}
}

func TestEvidenceStickinessIsTheShareOfRepeats(t *testing.T) {
	share, repeated, total := evidenceStickiness()
	if total != len(stickinessEvidence) || share != float64(repeated)/float64(total) || share <= 0 || share > 1 {
		t.Errorf("stickiness %v from %d of %d", share, repeated, total)
	}
}
