package actors

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// BenchmarkLongSession500Turns is the issue-5 measurement: a 500-turn scripted session whose
// every turn produces a large tool output (bash seq 3000 lines ≈ 14 KB, read_file of a distinct
// generated file ≈ 14 KB, grep across ten files ≈ 16 KB), in a 32k window. It reports the
// largest request (it must stay under the window), the compactions, request bytes per turn over
// time (flat, not growing), pairing violations in any request (0), and the time projection.
// Project takes per turn, measured by replaying the session's stored log at each turn boundary.
// Two variants: the #compactor answers with a summary, or it is absent and every compaction
// falls back to a mechanical summary. Nothing here asserts a number; the tests in
// context_test.go guard the invariants.
func BenchmarkLongSession500Turns(b *testing.B) {
	const window, turns = 32768, 500
	load := ctxLoad{SeqLines: 3000, ReadLines: 200, GrepFiles: 10}
	b.Run("model-summary", func(b *testing.B) {
		benchLongSession(b, ctxLongScript(turns, load, &llm.Script{Turns: []llm.ScriptTurn{{Text: ctxSummary}}}), window, turns)
	})
	b.Run("mechanical", func(b *testing.B) {
		benchLongSession(b, ctxLongScript(turns, load, nil), window, turns)
	})
}

func benchLongSession(b *testing.B, script string, window, turns int) {
	for i := 0; i < b.N; i++ {
		tn := startContextNode(b, script, func(root string) { ctxGenFiles(b, root, turns/4+2, 250) })
		id := fmt.Sprintf("long%d", i)
		start := time.Now()
		fin := tn.runWindowed(b, id, window, turns+10, 5*time.Minute)
		wall := time.Since(start)
		if fin.Status != messages.StatusDone {
			b.Fatalf("the session did not finish done: %+v", fin)
		}
		reportLongSession(b, tn, id, window, wall)
	}
}

func reportLongSession(b *testing.B, tn *testNode, id string, window int, wall time.Duration) {
	reqs := tn.provider.all()
	c := ctxCheckRequests(reqs, window)
	var perTurn, perTurnTok []int // bytes and tokens of each main request: one per turn
	maxMain := 0
	for _, r := range reqs {
		if strings.HasSuffix(r.Agent, "/"+compactorAgent) {
			continue
		}
		perTurn = append(perTurn, requestSize(r))
		tok := ctxRequestTokens(r)
		perTurnTok = append(perTurnTok, tok)
		maxMain = max(maxMain, tok)
	}
	compacted := ctxEvents[messages.ContextCompactedData](tn, id, messages.EventContextCompacted)
	mechanical, reasons := 0, map[string]int{}
	for _, d := range compacted {
		if d.Mechanical {
			mechanical++
		}
		reasons[d.Reason]++
	}
	blocks := 0
	for _, p := range ctxEvents[messages.ContextPressureData](tn, id, messages.EventContextPressure) {
		if p.Level == messages.PressureBlock {
			blocks++
		}
	}

	b.Logf("%d turns in %.1f s: %d main requests, %d compactor requests; window %d tokens; stable prefix %d tokens",
		len(perTurn)-1, wall.Seconds(), c.main, c.compactor, window, ctxRequestTokens(&llm.Request{System: reqs[0].System, Tools: reqs[0].Tools}))
	b.Logf("largest request: %d tokens (%.1f%% of the window), %d bytes; main requests only: %d tokens; over the window: %d",
		c.maxTokens, 100*float64(c.maxTokens)/float64(window), c.maxBytes, maxMain, len(c.overWindow))
	b.Logf("compactions: %d (%d mechanical; by reason %v); block-level pressure events: %d; pairing violations: %d; prefix changes: %d",
		len(compacted), mechanical, reasons, blocks, len(c.violations), len(c.prefixDiffers))
	// The series, one line each (a benchmark's log is cut after 10 lines): at every 50th turn, the
	// mean over the 50 turns that end there, and the request of that turn itself.
	var meanBytes, atBytes, meanTok []string
	for t := 50; t <= len(perTurn); t += 50 {
		meanBytes = append(meanBytes, fmt.Sprintf("%d:%.0f", t, ctxMean(perTurn[t-50:t])))
		atBytes = append(atBytes, fmt.Sprintf("%d:%d", t, perTurn[t-1]))
		meanTok = append(meanTok, fmt.Sprintf("%d:%.0f", t, ctxMean(perTurnTok[t-50:t])))
	}
	b.Logf("request bytes, mean of the 50 turns ending at turn: %s", strings.Join(meanBytes, " "))
	b.Logf("request bytes at turn: %s", strings.Join(atBytes, " "))
	b.Logf("request tokens, mean of the 50 turns ending at turn: %s", strings.Join(meanTok, " "))
	n := min(100, len(perTurn)/2)
	first, last := ctxMean(perTurn[:n]), ctxMean(perTurn[len(perTurn)-n:])
	b.Logf("request bytes, mean of the first %d turns %.0f, of the last %d %.0f: ratio last/first %.3f; slope over turns 100–500 %.1f bytes/turn",
		n, first, n, last, last/first, ctxSlope(perTurn, min(100, len(perTurn)-1)))

	proj, projFirst, projLast := ctxProjectTimes(b, tn, id)
	b.Logf("projection.Project per turn (replayed from the stored log at %d turn boundaries): median %.1f µs, p99 %.1f µs; median of the first 100 turns %.1f µs, of the last 100 %.1f µs",
		len(proj), ctxPercentile(proj, 0.5), ctxPercentile(proj, 0.99), ctxPercentile(projFirst, 0.5), ctxPercentile(projLast, 0.5))

	b.ReportMetric(float64(c.maxTokens), "tokens/max-request")
	b.ReportMetric(float64(window), "tokens/window")
	b.ReportMetric(float64(len(c.overWindow)), "requests-over-window")
	b.ReportMetric(float64(len(compacted)), "compactions")
	b.ReportMetric(float64(mechanical), "mechanical-compactions")
	b.ReportMetric(float64(len(c.violations)), "pairing-violations")
	b.ReportMetric(first, "bytes/req-first100")
	b.ReportMetric(last, "bytes/req-last100")
	b.ReportMetric(last/first, "last100/first100")
	b.ReportMetric(ctxPercentile(proj, 0.5), "µs/project-median")
	b.ReportMetric(ctxPercentile(proj, 0.99), "µs/project-p99")
	b.ReportMetric(wall.Seconds(), "s/session")
}

// ctxProjectTimes replays the session's stored log: at every turn boundary (each assistant
// entry) it projects what came before, as the session does before the call, and times Project
// alone (the median of 5 runs per turn). It returns the times in µs, sorted: all, those of the
// first 100 turns and those of the last 100.
func ctxProjectTimes(b *testing.B, tn *testNode, id string) (all, first, last []float64) {
	entries, err := tn.Store().Log(id)
	if err != nil {
		b.Fatal(err)
	}
	items := projection.FromEntries(entries)
	for i, it := range items {
		if it.Boundary != nil || it.Msg.Role != llm.RoleAssistant {
			continue
		}
		in := projection.Input{Items: items[:i], Now: it.Time}
		const reps = 5 // a projection takes microseconds: time a few and keep their median
		var ds [reps]float64
		for r := range ds {
			start := time.Now()
			msgs := projection.Project(in)
			ds[r] = float64(time.Since(start).Nanoseconds()) / 1e3
			ctxSink += len(msgs)
		}
		sort.Float64s(ds[:])
		all = append(all, ds[reps/2])
	}
	first = append(first, all[:min(100, len(all))]...)
	last = append(last, all[max(0, len(all)-100):]...)
	for _, xs := range [][]float64{all, first, last} {
		sort.Float64s(xs)
	}
	return all, first, last
}

// ctxSink keeps the projections timed from being optimized away.
var ctxSink int

func ctxMean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0
	for _, x := range xs {
		s += x
	}
	return float64(s) / float64(len(xs))
}

// slope is the least-squares slope of xs[from:] against the turn number.
func ctxSlope(xs []int, from int) float64 {
	ys := xs[from:]
	n := float64(len(ys))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for i, y := range ys {
		x := float64(i)
		sx, sy, sxx, sxy = sx+x, sy+float64(y), sxx+x*x, sxy+x*float64(y)
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// percentile of sorted xs (p in [0, 1]).
func ctxPercentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}
