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
	type answer struct{ got, want []llm.Message }
	var answers []answer
	for k := 1; k <= len(h.items); k++ {
		at := h.items[k-1].Time
		if k == len(h.items) {
			at = h.now.Add(now)
		}
		in := Input{Items: h.items[:k], Now: at, KeepOutputs: keep, PreviewBytes: previewBytes}
		if k%2 == 0 { // with and without state: without, the answer is the kept array itself
			in.State = state
		}
		if k%3 == 0 {
			in.Echo = &Echo{Stamp: "p/m", Model: "m"}
		}
		got, want := p.Project(in), projectWhole(in)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %d items the grown projection differs:\n got %s\nwant %s", k, renderMessages(got), renderMessages(want))
		}
		answers = append(answers, answer{got, want})
	}
	for k, a := range answers { // the answers share arrays: a later one never changes an earlier one
		if !reflect.DeepEqual(a.got, a.want) {
			t.Fatalf("the answer after %d items changed later:\n got %s\nwant %s", k+1, renderMessages(a.got), renderMessages(a.want))
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

// Echo stamps the calling model's own messages with the name it is asked by and drops every
// other model's reasoning; a Projector that saw another Echo (or none) builds its view again.
func TestProjectorEchoesReasoningOnlyToItsModel(t *testing.T) {
	h := newHist().user("go")
	h.add(Item{Msg: llm.Message{Role: llm.RoleAssistant, Content: "a", Reasoning: "mine", ReasoningBlocks: []byte(`{}`), Model: "p/m"}})
	h.add(Item{Msg: llm.Message{Role: llm.RoleAssistant, Content: "b", Reasoning: "theirs", ReasoningBlocks: []byte(`{}`), Model: "q/other"}})
	var p Projector
	got := p.Project(Input{Items: h.items, Now: h.now, Echo: &Echo{Stamp: "p/m", Model: "m"}})
	if a, b := got[1], got[2]; a.Model != "m" || a.Reasoning != "mine" || len(a.ReasoningBlocks) == 0 || b.Model != "q/other" || b.Reasoning != "" || b.ReasoningBlocks != nil {
		t.Fatalf("echo: %+v / %+v", a, b)
	}
	if h.items[1].Msg.Model != "p/m" || h.items[2].Msg.Reasoning != "theirs" {
		t.Fatal("the log's items were changed")
	}
	got = p.Project(Input{Items: h.items, Now: h.now, Echo: &Echo{Stamp: "q/other", Model: "other"}})
	if a, b := got[1], got[2]; a.Reasoning != "" || a.Model != "p/m" || b.Model != "other" || b.Reasoning != "theirs" {
		t.Fatalf("another model: %+v / %+v", a, b)
	}
	if got := p.Project(Input{Items: h.items, Now: h.now}); !reflect.DeepEqual(got, projectWhole(Input{Items: h.items, Now: h.now})) || got[1].Model != "p/m" {
		t.Fatalf("no echo: %s", renderMessages(got))
	}
}
