package projection

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
)

// turnCost is what one user message of the text "uNN" costs in the tests below.
var turnCost = EstimateMessage(llm.Message{Role: llm.RoleUser, Content: "u00"})

// tailCost is the estimate of the messages of items[j:].
func tailCost(items []Item, j int) int { return EstimateMessages(messages(items[j:])) }

func TestSelectSpan(t *testing.T) {
	// chat: ten user/assistant exchanges, each message costing turnCost.
	chat := newHist()
	for i := range 10 {
		chat.user(fmt.Sprintf("u%02d", i)).assistant(fmt.Sprintf("a%02d", i))
	}
	// batch: a parallel batch with a note between results sits where the budget would cut.
	batch := newHist().user("u00").assistant("a00").user("u01").
		assistant("", bash("c1", "x"), bash("c2", "y")).result("c1", "bash", "r").note("n").result("c2", "bash", "r").
		assistant("a02").user("u03")
	// folded: a boundary replaced 1–4; entries 5 and 6 were appended while it was written.
	folded := newHist().user("u00").assistant("a00").user("u01").assistant("a01").user("u02").assistant("a02").
		boundary(Boundary{FromSeq: 1, ToSeq: 4, Summary: "s"})
	for i := 3; i < 9; i++ {
		folded.user(fmt.Sprintf("u%02d", i)).assistant(fmt.Sprintf("a%02d", i))
	}
	inFlight := newHist().user("u00").assistant("a00").user("u01").assistant("", bash("c1", "x"))

	tests := []struct {
		name          string
		items         []Item
		keep, minTurn int
		from, to      int
		ok            bool
	}{
		{"keep four messages by tokens", chat.items, 4 * turnCost, 2, 0, 16, true},
		{"budget between messages: keep less", chat.items, 4*turnCost + 1, 2, 0, 16, true},
		{"min turns beat the budget", chat.items, 1, 6, 0, 14, true},
		{"everything fits: nothing to collapse", chat.items, 100 * turnCost, 2, 0, 0, false},
		{"too few turns: nothing to collapse", chat.items, 0, 20, 0, 0, false},
		{"collapse everything", chat.items, 0, 0, 0, 20, true},
		{"a cut inside a batch moves to the next turn", batch.items, tailCost(batch.items, 5), 1, 0, 7, true},
		{"a batch that fits stays whole", batch.items, tailCost(batch.items, 3), 1, 0, 3, true},
		{"the last boundary is folded into the span", folded.items, 4 * turnCost, 1, 4, 15, true},
		{"a tail holding the last boundary: nothing to collapse", folded.items, 13 * turnCost, 1, 0, 0, false},
		{"the view fits: nothing to collapse", folded.items, 14 * turnCost, 1, 0, 0, false},
		{"a call in flight stays in the tail", inFlight.items, 0, 0, 0, 3, true},
		{"empty", nil, 10, 1, 0, 0, false},
	}
	for _, tt := range tests {
		from, to, ok := SelectSpan(tt.items, tt.keep, tt.minTurn)
		if from != tt.from || to != tt.to || ok != tt.ok {
			t.Errorf("%s: SelectSpan = %d, %d, %v; want %d, %d, %v", tt.name, from, to, ok, tt.from, tt.to, tt.ok)
			continue
		}
		if ok && SafeCut(tt.items, to) != to {
			t.Errorf("%s: to = %d is not a safe cut", tt.name, to)
		}
	}
}

func TestSpanSeqs(t *testing.T) {
	h := newHist().user("a").user("b").boundary(Boundary{FromSeq: 1, ToSeq: 2}).user("c")
	tests := []struct {
		name     string
		span     []Item
		from, to uint64
	}{
		{"empty", nil, 0, 0},
		{"messages", h.items[:2], 1, 2},
		{"a boundary reaches back to what it replaced", h.items[2:], 1, 4},
	}
	for _, tt := range tests {
		if from, to := SpanSeqs(tt.span); from != tt.from || to != tt.to {
			t.Errorf("%s: SpanSeqs = %d, %d; want %d, %d", tt.name, from, to, tt.from, tt.to)
		}
	}
}

func TestMechanical(t *testing.T) {
	h := newHist().
		boundary(Boundary{FromSeq: 1, ToSeq: 1, Summary: "Earlier work on the parser.", FilesTouched: []string{"parse.go"},
			KeyResults: []string{"$ make → ok"}, OpenIssues: []string{"lexer is slow"}}).
		user("Fix the failing config test\nit fails since Monday").
		assistant("Reading it.", call("c1", "read_file", `{"path":"config/load.go"}`), call("c2", "grep", `{"pattern":"x","path":"."}`)).
		result("c1", "read_file", "package config").result("c2", "grep", "no matches").
		note("the user approved the edit").
		assistant("", call("c3", "edit_file", `{"path":"config/load.go","old_string":"a","new_string":"b"}`), call("c4", "edit_file", `{"path":"parse.go"`)).
		failed("c3", "edit_file", "old_string not found in config/load.go").result("c4", "edit_file", "ok").
		assistant("", bash("c5", "go test ./config\necho done"), bash("c6", "go vet ./...")).
		failed("c5", "bash", "--- FAIL: TestLoad (0.00s)\n    load_test.go:12: want 3\nFAIL\n[exit code 1]").
		result("c6", "bash", "[exit code 0]").
		assistant("The test still fails: TestLoad wants 3.")

	got := Mechanical(h.items, "auto-compact at 61% of the window")
	want := Boundary{
		FromSeq: 1, ToSeq: 13, Mechanical: true, Reason: "auto-compact at 61% of the window",
		Summary: "Earlier: Earlier work on the parser.\n\nUser requests, in order:\n- Fix the failing config test\n\n" +
			"Last assistant message: The test still fails: TestLoad wants 3.",
		FilesTouched: []string{"parse.go", "config/load.go"}, // "." says nothing; malformed args are skipped
		KeyResults: []string{"$ make → ok", "edit_file config/load.go → error: old_string not found in config/load.go",
			"$ go test ./config → exit code 1: --- FAIL: TestLoad (0.00s)", "$ go vet ./... → ok"},
		OpenIssues: []string{"lexer is slow"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Mechanical:\ngot  %#v\nwant %#v", got, want)
	}
	checkGolden(t, "mechanical.golden", got.Render())
}

// TestMechanicalBounded checks a huge span still gives a summary of about 4 KB.
func TestMechanicalBounded(t *testing.T) {
	h := newHist()
	long := strings.Repeat("word ", 200)
	for i := range 300 {
		id := fmt.Sprintf("c%d", i)
		h.user(fmt.Sprintf("request %d: %s", i, long)).
			assistant(long, call(id, "bash", fmt.Sprintf(`{"command":"make target%d %s","path":"dir%d/%s"}`, i, long, i, long))).
			failed(id, "bash", long+"\n[exit code 2]")
	}
	b := Mechanical(h.items, "test")
	if n := size(b); n > mechBudget {
		t.Errorf("mechanical summary is %d bytes, want ≤ %d", n, mechBudget)
	}
	for _, list := range [][]string{b.FilesTouched, b.KeyResults, b.OpenIssues} {
		if len(list) > mechListItems {
			t.Errorf("a list has %d items, want ≤ %d", len(list), mechListItems)
		}
		for _, s := range list {
			if len(s) > mechItemBytes {
				t.Errorf("an item is %d bytes, want ≤ %d", len(s), mechItemBytes)
			}
		}
	}
	if !strings.Contains(b.Summary, "request 0:") || !strings.Contains(b.Summary, "request 299:") {
		t.Errorf("the summary lost the first or the last request:\n%s", b.Summary)
	}
	if b.FromSeq != 1 || b.ToSeq != 900 || !b.Mechanical {
		t.Errorf("range %d–%d mechanical %v, want 1–900 true", b.FromSeq, b.ToSeq, b.Mechanical)
	}
}
