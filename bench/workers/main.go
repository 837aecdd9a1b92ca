// Command workers measures what running subagents on workers costs, and prints it (nothing is
// asserted). Against Debian's stock nats-server (2.9, JetStream on, one node, started here) and
// real git repositories in a temporary directory:
//
//   - code: bytes moved per task for a generated repository of -repo-mb MB, through the object
//     store (bundles) and through a shared remote, cold and warm worker, with uncommitted
//     changes, a returned branch; and how long each step takes (internal/gitship);
//   - spawn: what placing a writing child costs before its session starts, local (its own
//     worktree) against remote (code shipped, task queued and taken, checkout and state ready);
//   - queue: tasks per second through the project's work queue (internal/taskqueue), two
//     consumers, and the time until a task held by a worker that died is redelivered;
//   - state: a child's transcript mirrored to the key-value bucket (entries per second), its
//     worktree checkpointed and restored on another worker (internal/taskstate).
//
// Times are medians over -runs repetitions.
//
// -part e2e drives real binaries end to end instead (see benchE2E): a Node whose parent spawns
// -agents scripted agents (e.g. 1000,10000) placed locally and on two workers: wall time,
// agents per second through the dispatcher and the queue, spawn → first model request, peak
// RSS and RssAnon per process, events/s to one watcher, the machine's load. -before REV builds
// that revision too and alternates its runs with the current tree's, so one run prints before
// and after. -pprof DIR builds with -tags troupe_pprof and leaves CPU and allocation profiles of
// every process in DIR (go tool pprof DIR/<scenario>-<process>.cpu.pprof).
//
// Usage: go run ./bench/workers [-part all|code|spawn|queue|state|e2e] [-repo-mb 50] [-runs 3]
// [-tasks 500] [-ackwait 5s] [-agents 1000,10000] [-place local,workers] [-before REV]
// [-e2e-runs 3,1] [-timeout 20m] [-pprof DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/workers:", err)
		os.Exit(1)
	}
}

// run measures what the flags ask; its defers stop the server and remove the work directory
// on every path.
func run() error {
	part := flag.String("part", "all", "what to measure: all, code, spawn, queue or state")
	repoMB := flag.Int("repo-mb", 50, "size of the generated repository's files, in MB")
	runs := flag.Int("runs", 3, "repetitions of each timed step (medians are printed)")
	tasks := flag.Int("tasks", 500, "tasks pushed through the queue per run")
	ackWait := flag.Duration("ackwait", 5*time.Second, "the queue's AckWait (redelivery waits for it)")
	agents := flag.String("agents", "1000", "-part e2e: scripted agents the parent spawns (a comma list runs each)")
	places := flag.String("place", "local,workers", "-part e2e: placements to run (local, workers)")
	slots := flag.Int("slots", 8, "-part e2e: slots of each of the two workers")
	bin := flag.String("bin", "", "-part e2e: the troupe binary (default: built from ./cmd/troupe)")
	before := flag.String("before", "", "-part e2e: also build this git revision and run it alternately (before/after)")
	e2eRuns := flag.String("e2e-runs", "1", "-part e2e: runs of each scenario, medians printed (a comma list: per -agents count)")
	limit := flag.Duration("timeout", 20*time.Minute, "-part e2e: a run is stopped after this long (what finished is counted)")
	pprofDir := flag.String("pprof", "", "-part e2e: profile every process into this directory (builds with -tags troupe_pprof)")
	flag.Parse()
	work, err := os.MkdirTemp("", "bench-workers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	srv, err := startServer(work)
	if err != nil {
		return err
	}
	defer srv.stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	fmt.Printf("nats-server %s (JetStream, one node), git %s, %d run(s)\n\n", srv.version, gitVersion(), *runs)
	if *part == "e2e" {
		o, err := e2eSetup(work, *bin, *before, *agents, *e2eRuns, *places, *pprofDir)
		if err != nil {
			return err
		}
		o.slots, o.timeout = *slots, *limit
		return benchE2E(o, srv, work)
	}
	steps := []struct {
		name string
		f    func() error
	}{
		{"code", func() error { return benchCode(ctx, srv, work, *repoMB, *runs) }},
		{"spawn", func() error { return benchSpawn(ctx, srv, work, *repoMB, *runs) }},
		{"queue", func() error { return benchQueue(ctx, srv, *tasks, *runs, *ackWait) }},
		{"state", func() error { return benchState(ctx, srv, work, *repoMB, *runs) }},
	}
	for _, st := range steps {
		if *part == "all" || *part == st.name {
			if err := st.f(); err != nil {
				return fmt.Errorf("%s: %w", st.name, err)
			}
		}
	}
	fmt.Println("\nend to end (spawn → first model request, 10,000 scripted agents across a Node and two")
	fmt.Println("workers: peak memory per process, events/s to one watcher): -part e2e -agents 1000,10000")
	return nil
}

// median of durations (the slice is sorted in place).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// timeIt runs f runs times and returns the median duration.
func timeIt(runs int, f func(i int) error) (time.Duration, error) {
	var ds []time.Duration
	for i := range runs {
		start := time.Now()
		if err := f(i); err != nil {
			return 0, err
		}
		ds = append(ds, time.Since(start))
	}
	return median(ds), nil
}

func kib(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }
