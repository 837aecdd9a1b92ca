package projection

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

// ref is an artifact ref as the tool layer writes it into a cut output.
const ref = "sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// projectCases are the golden histories; each must pass Violations.
func projectCases() []struct {
	name string
	in   Input
} {
	plain := newHist().user("list the files").
		assistant("", call("c1", "list_dir", `{"path":"."}`)).result("c1", "list_dir", "a.go\nb.go").
		assistant("Two files: a.go and b.go.")

	// Entries 1–4 were collapsed; 5 and 6 were appended while the summary was written.
	withBoundary := newHist().user("old request").assistant("", bash("c1", "make")).result("c1", "bash", "[exit code 0]").
		assistant("built").user("while compacting").assistant("noted").
		boundary(Boundary{FromSeq: 1, ToSeq: 4, Summary: "The user asked for a build; it passed.",
			KeyResults: []string{"$ make → ok"}}).
		user("now test it").assistant("", bash("c2", "go test ./...")).result("c2", "bash", "ok\n[exit code 0]")

	// A boundary cut inside a batch (not with SafeCut): the results it orphaned are dropped.
	badCut := newHist().user("u").assistant("", bash("c1", "a"), bash("c2", "b")).result("c1", "bash", "one").
		note("approved").result("c2", "bash", "two").assistant("after").
		boundary(Boundary{FromSeq: 1, ToSeq: 3, Summary: "cut mid-batch"}).user("next")

	long := strings.Repeat("line of build output\n", 10)
	cjk := strings.Repeat("构建输出", 30)
	idle := newHist().user("build everything").
		assistant("", bash("c1", "make all")).result("c1", "bash", long+"[output was 90000 bytes; ref="+ref+": read_artifact ref="+ref+" offset=12 to page through it]").
		assistant("", bash("c2", "make docs")).result("c2", "bash", cjk).
		assistant("", bash("c3", "make lint")).result("c3", "bash", "short").
		assistant("", bash("c4", "make test")).failed("c4", "bash", long+"[exit code 2]").
		assistant("Tests fail.").
		wait(2*time.Hour).
		user("back: fix the tests").assistant("", bash("c5", "go test ./...")).result("c5", "bash", long)

	idleNow := newHist().user("u").assistant("", bash("c1", "make")).result("c1", "bash", long).
		assistant("", bash("c2", "make")).result("c2", "bash", long).assistant("done")

	return []struct {
		name string
		in   Input
	}{
		{"project_plain.golden", Input{Items: plain.items, Now: plain.now}},
		{"project_boundary_state.golden", Input{Items: withBoundary.items, Now: withBoundary.now, State: []StateBlock{
			{Title: "Goal", Body: "make the tests pass\n"}, {Title: "Changed files", Body: "- config/load.go"}}}},
		{"project_bad_cut.golden", Input{Items: badCut.items, Now: badCut.now}},
		{"project_idle_gap.golden", Input{Items: idle.items, Now: idle.now, KeepOutputs: 2, PreviewBytes: 64}},
		{"project_idle_now.golden", Input{Items: idleNow.items, Now: idleNow.now.Add(45 * time.Minute), KeepOutputs: 1, PreviewBytes: 40}},
	}
}

func TestProjectGolden(t *testing.T) {
	for _, tc := range projectCases() {
		if v := Violations(messages(tc.in.Items)); v != nil {
			t.Fatalf("%s: the test history is invalid: %q", tc.name, v)
		}
		got := Project(tc.in)
		if v := Violations(got); v != nil {
			t.Errorf("%s: the projection breaks pairing: %q", tc.name, v)
		}
		checkGolden(t, tc.name, renderMessages(got))
	}
}

// TestProjectPure checks Project leaves its input alone, returns the same messages every time,
// and hands out ToolCalls that cannot be appended into the items' arrays.
func TestProjectPure(t *testing.T) {
	for _, tc := range projectCases() {
		before := cloneItems(tc.in.Items)
		first := Project(tc.in)
		if !reflect.DeepEqual(tc.in.Items, before) {
			t.Errorf("%s: Project modified its input", tc.name)
		}
		if again := Project(tc.in); !reflect.DeepEqual(first, again) {
			t.Errorf("%s: Project is not deterministic", tc.name)
		}
		for i := range first {
			if len(first[i].ToolCalls) > 0 {
				first[i].ToolCalls = append(first[i].ToolCalls, llm.ToolCall{ID: "extra"})
			}
		}
		if !reflect.DeepEqual(tc.in.Items, before) {
			t.Errorf("%s: appending to a projected message's calls changed the input", tc.name)
		}
	}
}

// cloneItems deep-copies items (nil stays nil, so DeepEqual compares like with like).
func cloneItems(items []Item) []Item {
	if items == nil {
		return nil
	}
	out := make([]Item, len(items))
	for i, it := range items {
		out[i] = it
		out[i].Msg.ToolCalls = append([]llm.ToolCall(nil), it.Msg.ToolCalls...)
		if it.Boundary != nil {
			b := *it.Boundary
			out[i].Boundary = &b
		}
	}
	return out
}

// TestProjectIdleGap checks which outputs become previews, by index of the projected message.
func TestProjectIdleGap(t *testing.T) {
	out := strings.Repeat("x", 2000)
	build := func(gap time.Duration) *hist {
		return newHist().user("u").
			assistant("", bash("c1", "a")).result("c1", "bash", out). // 2
			assistant("", bash("c2", "b")).result("c2", "bash", out). // 4
			wait(gap).
			assistant("", bash("c3", "c")).result("c3", "bash", out).                      // 6
			assistant("", bash("c4", "d")).result("c4", "bash", "tiny").                   // 8
			assistant("", bash("c5", "e")).result("c5", "bash", strings.Repeat("y", 1100)) // 10: its preview would be longer
	}
	tests := []struct {
		name   string
		h      *hist
		now    time.Duration // after the last item
		gap    time.Duration
		keep   int
		elided []int
	}{
		{"no gap", build(time.Minute), 0, 0, 1, nil},
		{"a gap elides what came before it", build(time.Hour), 0, 0, 1, []int{2, 4}},
		{"exactly the gap counts", build(30*time.Minute - time.Second), 0, 0, 1, []int{2, 4}}, // items are a second apart
		{"just under the gap does not", build(30*time.Minute - 2*time.Second), 0, 0, 1, nil},
		{"keep the last outputs overall", build(time.Hour), 0, 0, 4, []int{2}},
		{"keep covering everything", build(time.Hour), 0, 0, 10, nil},
		{"default keep is 6", build(time.Hour), 0, 0, 0, nil},
		{"negative keep keeps none", build(time.Hour), 0, 0, -1, []int{2, 4}},
		{"a gap before now elides all but the kept", build(time.Minute), time.Hour, 0, 1, []int{2, 4, 6}},
		{"an output barely over the bound stays whole", build(time.Minute), time.Hour, 0, -1, []int{2, 4, 6}},
		{"a custom gap", build(10 * time.Minute), 0, 5 * time.Minute, 1, []int{2, 4}},
		{"a negative gap turns it off", build(time.Hour), time.Hour, -1, -1, nil},
	}
	for _, tt := range tests {
		got := Project(Input{Items: tt.h.items, Now: tt.h.now.Add(tt.now), IdleGap: tt.gap, KeepOutputs: tt.keep})
		var elided []int
		for i, m := range got {
			if strings.Contains(m.Content, "[troupe: older output elided") {
				elided = append(elided, i)
			}
		}
		if !reflect.DeepEqual(elided, tt.elided) {
			t.Errorf("%s: elided messages %v, want %v", tt.name, elided, tt.elided)
		}
	}
}

// TestProjectIdleGapZeroTimes checks unknown times make no gap.
func TestProjectIdleGapZeroTimes(t *testing.T) {
	h := newHist().assistant("", bash("c1", "a")).result("c1", "bash", strings.Repeat("x", 5000)).user("u")
	for i := range h.items {
		h.items[i].Time = time.Time{}
	}
	for _, now := range []time.Time{{}, t0.Add(24 * time.Hour)} {
		for _, m := range Project(Input{Items: h.items, Now: now, KeepOutputs: -1}) {
			if strings.Contains(m.Content, "elided") {
				t.Errorf("now %v: an output was elided with no known times", now)
			}
		}
	}
}

func TestPreview(t *testing.T) {
	tests := []struct {
		name  string
		out   string
		n     int
		want  string
		notIn string
	}{
		{"cut at a line end in the second half", "aaaa\nbbbb\ncccc\ndddd", 12,
			"aaaa\nbbbb\n[troupe: older output elided after an idle gap; 19 bytes; run the call again if you need the rest]", ""},
		{"cut at a rune boundary", "构建输出构建输出", 10,
			"构建输\n[troupe: older output elided after an idle gap; 24 bytes; run the call again if you need the rest]", ""},
		{"refs survive", "head\n" + strings.Repeat("y", 100) + "\n[stored as ref=" + ref + "]", 8,
			"head\n[troupe: older output elided after an idle gap; 193 bytes; the whole output is stored: read_artifact ref=" + ref + "]", "yyy"},
	}
	for _, tt := range tests {
		got := preview(tt.out, tt.n)
		if got != tt.want {
			t.Errorf("%s: preview =\n%q\nwant\n%q", tt.name, got, tt.want)
		}
	}
}

func TestArtifactRefs(t *testing.T) {
	hex := ref[len("sha256:"):]
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"none", "no refs here", nil},
		{"sha256 ref", "read_artifact ref=" + ref + " offset=3", []string{ref}},
		{"store key", "kept at a/" + hex + ".", []string{"a/" + hex}},
		{"deduplicated", "ref=" + ref + ": read_artifact ref=" + ref, []string{ref}},
		{"too short", "ref=sha256:abc", nil},
		{"too long", "ref=" + ref + "0", nil},
		{"inside a word", "data/" + hex, nil},
		{"bounded", "sha256:" + strings.Repeat("1", 64) + " sha256:" + strings.Repeat("2", 64) + " sha256:" +
			strings.Repeat("3", 64) + " sha256:" + strings.Repeat("4", 64),
			[]string{"sha256:" + strings.Repeat("1", 64), "sha256:" + strings.Repeat("2", 64), "sha256:" + strings.Repeat("3", 64)}},
	}
	for _, tt := range tests {
		if got := artifactRefs(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: artifactRefs = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestProjectState(t *testing.T) {
	h := newHist().user("u").assistant("a")
	if got := Project(Input{Items: h.items, Now: h.now}); len(got) != 2 {
		t.Errorf("no state: %d messages, want 2", len(got))
	}
	got := Project(Input{Items: h.items, Now: h.now, State: []StateBlock{{Title: "Goal", Body: "ship it"}, {Title: "Todo", Body: "- [ ] tests\n"}}})
	want := llm.Message{Role: llm.RoleUser, Content: "[troupe state]\n\n## Goal\nship it\n\n## Todo\n- [ ] tests"}
	if len(got) != 3 || !reflect.DeepEqual(got[2], want) {
		t.Errorf("state message = %#v, want %#v", got[len(got)-1], want)
	}
}
