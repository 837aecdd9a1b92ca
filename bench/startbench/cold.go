package main

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
)

// coldAB runs the cold one-shot against the loopback model (no node running; the node's start
// included) with each binary in turn, interleaved (A B A B …, so load that comes and goes falls
// on both alike), and prints for each its exec → exit median, the CPU time of the client and of
// the node, and the median moment of every phase after exec, client and node on one clock.
func (b *bench) coldAB(bins []string) error {
	script := filepath.Join(b.work, "script.json")
	samples := make([][]*runSample, len(bins))
	dirs := make([]string, len(bins))
	for i := range bins {
		dir, err := b.project(fmt.Sprintf("cold%d", i))
		if err != nil {
			return err
		}
		dirs[i] = dir
	}
	for range b.runs {
		for i, bin := range bins {
			run := &bench{bin: bin, work: b.work, runs: b.runs, loopback: b.loopback}
			if err := run.stopNode(dirs[i]); err != nil {
				return err
			}
			s, err := run.runOnce(dirs[i], script, b.loopback)
			if err != nil {
				return err
			}
			samples[i] = append(samples[i], s)
		}
	}
	if len(bins) == 2 { // the runs were taken in pairs: a load that came and went hit both alike
		var d []float64
		for r := range samples[0] {
			d = append(d, samples[0][r].exitMS-samples[1][r].exitMS)
		}
		row("cold loopback A − B, median of the pairs", fmt.Sprintf("%.1f ms", median(d)))
	}
	for i, bin := range bins {
		if err := (&bench{bin: bin}).stopNode(dirs[i]); err != nil {
			return err
		}
		pick := func(f func(*runSample) float64) float64 {
			var v []float64
			for _, s := range samples[i] {
				if x := f(s); !math.IsNaN(x) {
					v = append(v, x)
				}
			}
			return median(v)
		}
		var exits []string
		for _, s := range samples[i] {
			exits = append(exits, fmt.Sprintf("%.0f", s.exitMS))
		}
		row(fmt.Sprintf("cold loopback %s: exec → exit (median of %d)", string(rune('A'+i)), b.runs),
			fmt.Sprintf("%.1f ms  [%s]  %s", pick(func(s *runSample) float64 { return s.exitMS }), strings.Join(exits, " "), bin))
		row("  CPU client / node (up to the run's exit)", fmt.Sprintf("%.1f / %.1f ms",
			pick(func(s *runSample) float64 { return s.cpuMS }), pick(func(s *runSample) float64 { return unset(s.nodeCPUMS) })))
		seen := map[string]bool{}
		for _, s := range samples[i] {
			for p := range s.phases {
				seen[p] = true
			}
		}
		type at struct {
			p  string
			ms float64
		}
		var line []at
		for p := range seen {
			line = append(line, at{p, pick(func(s *runSample) float64 { return s.phase(p) })})
		}
		sort.Slice(line, func(a, b int) bool { return line[a].ms < line[b].ms })
		for _, a := range line {
			row("  at "+a.p, fmt.Sprintf("%6.2f ms", a.ms))
		}
	}
	return nil
}
