package projection

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

// checkGrown holds a Projector to the whole-log projection on h's log as a session grows it:
// one Projector sees items[:1], items[:2], … (the same backing array, as append leaves it),
// each call at its own clock and the last at h.now+now, and then the log copied elsewhere (a
// rebuild). Every answer must be projectWhole's.
func checkGrown(t *testing.T, h *hist, now time.Duration, keep, previewBytes int) {
	t.Helper()
	var p Projector
	state := []StateBlock{{Title: "Goal", Body: "g"}}
	for k := 1; k <= len(h.items); k++ {
		at := h.items[k-1].Time
		if k == len(h.items) {
			at = h.now.Add(now)
		}
		in := Input{Items: h.items[:k], Now: at, KeepOutputs: keep, PreviewBytes: previewBytes, State: state}
		got, want := p.Project(in), projectWhole(in)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %d items the grown projection differs:\n got %s\nwant %s", k, renderMessages(got), renderMessages(want))
		}
		if len(got) > 0 {
			got[0].Content, got[len(got)-1].Model = "changed by the caller", "x" // as echoReasoning does: it must not reach the next call
		}
	}
	in := Input{Items: cloneItems(h.items), Now: h.now.Add(now), KeepOutputs: keep, PreviewBytes: previewBytes}
	if got, want := p.Project(in), projectWhole(in); !reflect.DeepEqual(got, want) {
		t.Fatalf("a copied log: got %s\nwant %s", renderMessages(got), renderMessages(want))
	}
}

// What makes a Projector rebuild rather than extend, and that either way its answer is the
// whole projection's: a boundary appended, a log reloaded (another slice of the same length),
// an option changed, a log that shrank.
func TestProjectorRebuildsWhenTheLogIsNotTheOneItSawGrown(t *testing.T) {
	out := strings.Repeat("a line of output\n", 200)
	h := newHist().user("go").assistant("", bash("c1", "make")).result("c1", "bash", out).
		assistant("", bash("c2", "make")).result("c2", "bash", out).assistant("done")
	var p Projector
	check := func(name string, in Input) {
		t.Helper()
		if got, want := p.Project(in), projectWhole(in); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %s\nwant %s", name, renderMessages(got), renderMessages(want))
		}
	}
	check("first", Input{Items: h.items, Now: h.now})
	h.wait(2*time.Hour).user("again").assistant("", bash("c3", "make")).result("c3", "bash", out)
	check("grown after an idle gap", Input{Items: h.items, Now: h.now, KeepOutputs: 1, PreviewBytes: 64})
	check("another preview bound", Input{Items: h.items, Now: h.now, KeepOutputs: 1, PreviewBytes: 200})
	check("the microcompact off", Input{Items: h.items, Now: h.now, IdleGap: -1})
	from, to, ok := SelectSpan(h.items, 10, 1)
	if !ok {
		t.Fatal("nothing to collapse")
	}
	h.boundary(Mechanical(h.items[from:to], "test"))
	check("a boundary appended", Input{Items: h.items, Now: h.now})
	h.assistant("after the boundary")
	check("grown after the boundary", Input{Items: h.items, Now: h.now})
	check("reloaded", Input{Items: cloneItems(h.items), Now: h.now})
	check("shrunk", Input{Items: h.items[:3], Now: h.now})
	check("empty", Input{Now: h.now, State: []StateBlock{{Title: "Goal", Body: "g"}}})
	changed := cloneItems(h.items)
	p.Project(Input{Items: changed, Now: h.now})
	changed[len(changed)-1] = Item{Seq: 999, Time: h.now, Msg: llm.Message{Role: llm.RoleAssistant, Content: "rewritten in place"}}
	check("its last item rewritten in place", Input{Items: changed, Now: h.now})
}
