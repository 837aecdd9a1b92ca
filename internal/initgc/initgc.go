// Package initgc keeps the garbage collector from running while a troupe process starts: off
// while the program's packages initialise, and, with Start, through the first moments of main,
// under a memory limit; then back on as GOGC and GOMEMLIMIT set it.
//
// troupe's dependencies allocate about 3.3 MB in package initialisation (regexps compiled into
// package variables, registries, tables), which crosses the collector's first goal (4 MB): every
// troupe process, `troupe version` included, ran a collection before main, about 2-3 ms of CPU
// of a 12 ms start (bench/SIZES.md). With the collector off, the garbage of initialisation is
// freed by the first collection after main instead, which a short command never reaches.
//
// Starting goes on after main: a client reads its configuration and attaches to the node, and a
// node opens its store, starts its bus and answers its first run. Each allocates a few MB of
// short-lived garbage, and with the collector back on at main both ran collections in the
// middle of it: measured on a cold one-shot (bench/startup.sh), about 4 ms of the client's CPU
// and 8 ms of its node's. Start keeps the collector off for StartGrace instead, under
// StartLimit (the runtime collects anyway as the process's memory nears it), so a start costs
// some MB of memory for that long, not collections. An idle process hands what it does not use
// back to the system (cmd/troupe's releaseIdleMemory, actors.Node.ServeUntilIdle).
//
// Go initialises a package once its imports are, the first in import-path order among those
// ready. This one imports only runtime/debug, sync and time, so it runs about two thirds of the
// way through, after some 1.8 MB of those allocations and before the collector's first trigger;
// where it runs is checked by TestNoCollectionDuringPackageInit.
package initgc

import (
	"runtime/debug"
	"sync"
	"time"
)

// StartGrace is how long after main the collector stays off (Start).
const StartGrace = time.Second

// StartLimit bounds the memory a start may use with the collector off: the runtime collects
// as its total nears it, so a start that allocates more than a start does is still bounded.
const StartLimit = 32 << 20

var (
	// percent is the collector's setting before this package turned it off (GOGC's value, -1
	// for off): what Done restores.
	percent = debug.SetGCPercent(-1)
	// limit is the memory limit before Start lowered it (GOMEMLIMIT's value, or no limit).
	limit = debug.SetMemoryLimit(-1)
	done  sync.Once
)

// Start keeps the collector off for StartGrace more, with the memory limit lowered to
// StartLimit (or GOMEMLIMIT's, if lower), then turns it back on (Done). main calls it first.
func Start() {
	debug.SetMemoryLimit(min(limit, StartLimit))
	time.AfterFunc(StartGrace, Done)
}

// Done turns the collector back on as GOGC and GOMEMLIMIT set it. Later calls change nothing.
func Done() {
	done.Do(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}
