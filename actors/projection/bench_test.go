package projection

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
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

// BenchmarkProjectorGrown is the same 500-turn unbounded history projected as a session does:
// one Projector, called after each turn's items are appended (ns/op is per call, averaged over
// the 500 calls); "whole" projects the whole log at each of those calls, as before Projector.
func BenchmarkProjectorGrown(b *testing.B) {
	items := benchHistory(b, false)
	var ends []int // the log's length after each turn
	for i, it := range items {
		if it.Msg.Role == llm.RoleAssistant && it.Msg.Content != "" {
			ends = append(ends, i+1)
		}
	}
	state := []StateBlock{{Title: "Goal", Body: "finish"}}
	for _, whole := range []bool{false, true} {
		name := "projector"
		if whole {
			name = "whole"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			calls := 0
			for b.Loop() {
				var p Projector
				for _, n := range ends {
					in := Input{Items: items[:n], Now: items[n-1].Time, State: state}
					if whole {
						Project(in)
					} else {
						p.Project(in)
					}
					calls++
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/call")
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
