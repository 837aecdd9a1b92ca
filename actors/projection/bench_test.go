package projection

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// BenchmarkProject500Turns projects a 500-turn session: each turn a request, a batch of two
// calls with 8 KB outputs, and a reply; an idle gap before the last ten turns, so the
// microcompact previews run. "boundaries" collapses the history every 100 turns (SelectSpan
// and Mechanical, as the Compactor does), leaving about a hundred turns in view; "unbounded"
// never collapses, the worst case. It is the cost paid before every model call.
func BenchmarkProject500Turns(b *testing.B) {
	for _, bc := range []struct {
		name     string
		collapse bool
	}{{"boundaries", true}, {"unbounded", false}} {
		b.Run(bc.name, func(b *testing.B) {
			in := Input{Items: benchHistory(b, bc.collapse), State: []StateBlock{{Title: "Goal", Body: "finish"}}}
			in.Now = in.Items[len(in.Items)-1].Time
			if v := Violations(Project(in)); v != nil {
				b.Fatalf("projection breaks pairing: %q", v)
			}
			b.ReportAllocs()
			for b.Loop() {
				Project(in)
			}
		})
	}
}

func benchHistory(b *testing.B, collapse bool) []Item {
	h := newHist()
	out := strings.Repeat("a line of tool output, about sixty bytes long, give or take\n", 136) // ~8 KB
	for turn := range 500 {
		if turn == 490 {
			h.wait(2 * time.Hour)
		}
		c1, c2 := fmt.Sprintf("t%d_1", turn), fmt.Sprintf("t%d_2", turn)
		h.user(fmt.Sprintf("request %d", turn)).
			assistant("", bash(c1, "make"), call(c2, "read_file", `{"path":"main.go"}`)).
			result(c1, "bash", out+"[exit code 0]").result(c2, "read_file", out).
			assistant(fmt.Sprintf("turn %d done", turn))
		if collapse && turn%100 == 99 && turn < 499 {
			from, to, ok := SelectSpan(h.items, 20_000, 4)
			if !ok {
				b.Fatalf("turn %d: nothing to collapse", turn)
			}
			h.boundary(Mechanical(h.items[from:to], "bench"))
		}
	}
	return h.items
}
