package projection

import (
	"reflect"
	"strings"
	"testing"
)

func TestViolations(t *testing.T) {
	tests := []struct {
		name string
		h    *hist
		want []string // substrings, one per violation, in order
	}{
		{"empty", newHist(), nil},
		{"plain chat", newHist().user("hi").assistant("hello"), nil},
		{"one call", newHist().user("u").assistant("", bash("c1", "ls")).result("c1", "bash", "a"), nil},
		{"parallel calls", newHist().assistant("", bash("c1", "a"), bash("c2", "b"), bash("c3", "c")).
			result("c1", "bash", "").result("c2", "bash", "").result("c3", "bash", "").assistant("done"), nil},
		{"notes between results", newHist().assistant("", bash("c1", "a"), bash("c2", "b")).
			result("c1", "bash", "").note("approved").result("c2", "bash", "").user("next"), nil},
		{"ids reused across turns", newHist().assistant("", bash("call_0", "a")).result("call_0", "bash", "").
			assistant("", bash("call_0", "b")).result("call_0", "bash", ""), nil},
		{"orphan result first", newHist().result("c1", "bash", "").user("u"),
			[]string{`message 0: result for call "c1" answers no call`}},
		{"orphan result after a plain reply", newHist().assistant("hi").result("c1", "bash", ""),
			[]string{`message 1: result for call "c1" answers no call`}},
		{"duplicate result", newHist().assistant("", bash("c1", "a")).result("c1", "bash", "").result("c1", "bash", ""),
			[]string{`message 2: duplicate result for call "c1"`}},
		{"out of call order", newHist().assistant("", bash("c1", "a"), bash("c2", "b")).result("c2", "bash", "").result("c1", "bash", ""),
			[]string{`message 1: result for call "c2" is out of call order (call "c1" comes first)`}},
		{"missing before the next assistant", newHist().assistant("", bash("c1", "a"), bash("c2", "b")).result("c1", "bash", "").assistant("x"),
			[]string{`message 0: call "c2" (bash) has no result before the next assistant message (2)`}},
		{"missing at the end", newHist().assistant("", bash("c1", "a")).user("u"),
			[]string{`message 0: call "c1" (bash) has no result at the end`}},
		{"result of an earlier turn's call", newHist().assistant("", bash("c1", "a")).assistant("", bash("c2", "b")).
			result("c1", "bash", "").result("c2", "bash", ""),
			[]string{`call "c1" (bash) has no result before the next assistant message (1)`, `message 2: result for call "c1" answers no call`}},
		{"shared id in one message", newHist().assistant("", bash("c1", "a"), bash("c1", "b")).result("c1", "bash", "").result("c1", "bash", ""),
			[]string{`message 0: two calls share the id "c1"`}},
	}
	for _, tt := range tests {
		got := Violations(messages(tt.h.items))
		if len(got) != len(tt.want) {
			t.Errorf("%s: Violations = %q, want %d matching %q", tt.name, got, len(tt.want), tt.want)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tt.want[i]) {
				t.Errorf("%s: violation %d = %q, want it to contain %q", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

func TestSafeCut(t *testing.T) {
	// 0 user, 1 assistant(c1,c2), 2 result c1, 3 note, 4 result c2, 5 assistant, 6 user,
	// 7 boundary, 8 assistant(c3), 9 result c3, 10 user
	h := newHist().user("u1").assistant("", bash("c1", "a"), bash("c2", "b")).result("c1", "bash", "").
		note("approved").result("c2", "bash", "").assistant("done").user("u2").
		boundary(Boundary{FromSeq: 1, ToSeq: 3}).assistant("", bash("c3", "c")).result("c3", "bash", "").user("u3")
	tests := []struct {
		name string
		i    int
		want int
	}{
		{"at the start", 0, 0},
		{"at an assistant with calls", 1, 1},
		{"inside a batch: to the next turn", 2, 5},
		{"at a note between results: not a safe cut", 3, 5},
		{"at the last result of a batch", 4, 5},
		{"at a user message", 6, 6},
		{"at a boundary: to the next turn", 7, 8},
		{"inside the last batch", 9, 10},
		{"at the end: replace everything", 11, 11},
		{"negative i: from the start", -4, 0},
	}
	for _, tt := range tests {
		if got := SafeCut(h.items, tt.i); got != tt.want {
			t.Errorf("%s: SafeCut(%d) = %d, want %d", tt.name, tt.i, got, tt.want)
		}
	}
}

func TestSafeCutInFlight(t *testing.T) {
	// A batch in flight: c2 has no result yet, so no cut after the call is safe.
	h := newHist().user("u1").assistant("a1").user("u2").assistant("", bash("c1", "a"), bash("c2", "b")).result("c1", "bash", "")
	for i, want := range []int{0, 1, 2, 3, -1, -1} {
		if got := SafeCut(h.items, i); got != want {
			t.Errorf("SafeCut(%d) = %d, want %d", i, got, want)
		}
	}
}

// TestSafeCutNeverSeparates checks the defining property on every index of a history with
// parallel calls, notes between results and reused ids: cutting at SafeCut's answer leaves a
// kept part that passes Violations.
func TestSafeCutNeverSeparates(t *testing.T) {
	h := newHist().user("u").assistant("", bash("call_0", "a"), bash("call_1", "b")).result("call_0", "bash", "").
		note("n").result("call_1", "bash", "").assistant("", bash("call_0", "c")).result("call_0", "bash", "").
		user("u2").assistant("", bash("call_0", "d"), bash("call_1", "e"), bash("call_2", "f")).
		result("call_0", "bash", "").result("call_1", "bash", "").note("n2").result("call_2", "bash", "").assistant("end")
	if v := Violations(messages(h.items)); v != nil {
		t.Fatalf("the test history is invalid: %q", v)
	}
	for i := 0; i <= len(h.items); i++ {
		j := SafeCut(h.items, i)
		if j < i {
			t.Fatalf("SafeCut(%d) = %d", i, j)
		}
		if v := Violations(messages(h.items[j:])); v != nil {
			t.Errorf("cut at SafeCut(%d) = %d separates a pair: %q", i, j, v)
		}
		if j < len(h.items) && !startsTurn(h.items[j]) {
			t.Errorf("SafeCut(%d) = %d does not start a turn", i, j)
		}
	}
}

func TestCutPointsEmpty(t *testing.T) {
	if got := cutPoints(nil); !reflect.DeepEqual(got, []bool{true}) {
		t.Errorf("cutPoints(nil) = %v, want [true]", got)
	}
}
