// Package initgc keeps the garbage collector from running while the program's packages
// initialise, and turns it back on, as GOGC set it, when main starts.
//
// troupe's dependencies allocate about 3.3 MB in package initialisation (regexps compiled into
// package variables, registries, tables), which crosses the collector's first goal (4 MB): every
// troupe process, `troupe version` included, ran a collection before main, about 2-3 ms of CPU
// of a 12 ms start (bench/SIZES.md). With the collector off, the garbage of initialisation is
// freed by the first collection after main instead, which a short command never reaches.
//
// Go initialises a package once its imports are, the first in import-path order among those
// ready. This one imports only runtime/debug, so it runs about two thirds of the way through,
// after some 1.8 MB of those allocations and before the collector's first trigger; where it
// runs is checked by TestCollectorOffBeforeFirstCollection.
package initgc

import "runtime/debug"

// percent is the collector's setting before this package turned it off (GOGC's value, -1 for
// off): what Done restores.
var percent = debug.SetGCPercent(-1)

// Done turns the collector back on as GOGC set it. main calls it first; later calls change
// nothing.
func Done() {
	if percent != -1 {
		debug.SetGCPercent(percent)
		percent = -1
	}
}
