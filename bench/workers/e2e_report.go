package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// e2eResult is what one scenario measured.
type e2eResult struct {
	bin, place string
	agents     int
	wall       time.Duration // the run's process, start to exit
	timedOut   bool          // stopped at the limit: the figures count what finished
	finished   int           // agent.finished events the watcher saw
	// agentSpan is the first agent.spawned to the last agent.finished (the watcher's stamps):
	// agents per second through the dispatcher and, with workers, through the queue.
	agentSpan    time.Duration
	firstRequest []time.Duration // per child: agent.spawned → its first turn.started
	events       int
	span         time.Duration // first to last event the watcher got of the run's tree
	sessions     int
	mem          map[string]memory
	loadBefore   string
	loadAfter    string
}

func (r *e2eResult) agentsPerSec() float64 {
	if r.agentSpan <= 0 {
		return 0
	}
	return float64(r.finished) / r.agentSpan.Seconds()
}

func (r *e2eResult) eventsPerSec() float64 {
	if r.span <= 0 {
		return 0
	}
	return float64(r.events) / r.span.Seconds()
}

// processes in the order they are printed.
var processes = []string{"node", "w1", "w2", "run", "watch"}

func (r *e2eResult) printRun() {
	state := ""
	if r.timedOut {
		state = " STOPPED AT THE LIMIT"
	}
	fmt.Printf("  %-6s %-7s %6d agents: run %s%s, %d finished, %.1f agents/s, %.0f events/s (%d events, %d sessions), spawn→first request p50 %s; load %s→%s\n",
		r.bin, r.place, r.agents, secs(r.wall), state, r.finished, r.agentsPerSec(), r.eventsPerSec(), r.events, r.sessions,
		ms(median(slices.Clone(r.firstRequest))), r.loadBefore, r.loadAfter)
	var mem []string
	for _, p := range processes {
		if m, ok := r.mem[p]; ok {
			mem = append(mem, fmt.Sprintf("%s %s/%s", p, kib(m.peak<<10), kib(m.anon<<10)))
		}
	}
	fmt.Printf("         peak RSS/RssAnon: %s\n", strings.Join(mem, ", "))
}

// printSummary prints one row per binary × agents × placement: medians over the runs.
func printSummary(all []*e2eResult, o e2eOptions) {
	fmt.Printf("\nsummary (medians of the runs; memory: peak RSS / peak RssAnon per process, MiB; load: 1-minute load average at the start of each run, on 2 cores)\n")
	fmt.Printf("%-7s %-8s %-7s %9s %9s %9s %10s %8s  %s\n", "agents", "place", "binary", "wall", "agents/s", "events/s", "→1st req", "finished", "memory (RSS/RssAnon)")
	for _, n := range o.agents {
		for _, place := range o.places {
			for _, b := range o.bins {
				var rs []*e2eResult
				for _, r := range all {
					if r.agents == n && r.place == place && r.bin == b.label {
						rs = append(rs, r)
					}
				}
				if len(rs) == 0 {
					continue
				}
				var walls, first []time.Duration
				var aps, eps []float64
				var loads, fin []string
				stopped := 0
				for _, r := range rs {
					walls, aps, eps = append(walls, r.wall), append(aps, r.agentsPerSec()), append(eps, r.eventsPerSec())
					first = append(first, median(slices.Clone(r.firstRequest)))
					loads, fin = append(loads, r.loadBefore), append(fin, fmt.Sprint(r.finished))
					if r.timedOut {
						stopped++
					}
				}
				wall := secs(median(walls))
				if stopped > 0 {
					wall = ">" + wall
				}
				var mem []string
				for _, p := range processes {
					var peak, anon []float64
					for _, r := range rs {
						if m, ok := r.mem[p]; ok {
							peak, anon = append(peak, float64(m.peak)), append(anon, float64(m.anon))
						}
					}
					if len(peak) > 0 {
						mem = append(mem, fmt.Sprintf("%s %.0f/%.0f", p, medianF(peak)/1024, medianF(anon)/1024))
					}
				}
				fmt.Printf("%-7d %-8s %-7s %9s %9.1f %9.0f %10s %8s  %s MiB; load %s\n", n, place, b.label, wall, medianF(aps), medianF(eps),
					ms(median(first)), strings.Join(fin, ","), strings.Join(mem, ", "), strings.Join(loads, ","))
			}
		}
	}
}

func secs(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
