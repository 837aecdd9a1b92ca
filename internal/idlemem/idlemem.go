// Package idlemem hands the memory a quiet troupe process no longer uses back to the system.
//
// A chat client and its node spend most of their life waiting: for a model, for the user at
// the prompt, for the next client. While they wait they still allocate a little (a Node's
// watch loop, badger's compactor ticks, a full-screen chat's cursor blink: 10-35 KB/s), and
// with the heap below the collector's goal nothing collects it: each such allocation takes
// fresh pages, and an idle full-screen chat's client grew from 9 to 12 MiB in 90 s (bench/SIZES.md).
// A Releaser collects and returns the freed pages (debug.FreeOSMemory) once a process has gone
// quiet, and again each time ReleaseAfter more has been allocated since a collection, so what
// a waiting process holds stays within about that of what it uses.
package idlemem

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

const (
	// QuietRate is the allocation rate under which a process counts as quiet.
	QuietRate = 256 << 10 // bytes per second
	// QuietFor is how long a process must be quiet before a release.
	QuietFor = time.Second
	// ReleaseAfter is how much must have been allocated since the last collection for a
	// release: a release is a collection (a millisecond or two of CPU for these heaps, and
	// runtime metadata for a process's first few), so a process idle for hours releases once
	// per ReleaseAfter allocated and holds at most about that much garbage meanwhile. At 256
	// KiB a line chat's client collected again a few seconds after its first release and held
	// 0.4 MiB more for it (bench/SIZES.md).
	ReleaseAfter = 1 << 20
)

// Releaser decides when to release: once per quiet spell, after QuietFor allocating less than
// QuietRate, and only when at least ReleaseAfter was allocated since the last collection (a
// release or the collector's own). Each collection costs a small process runtime metadata,
// about 0.4 MiB for each of its first few, more than one that frees little gives back, so the
// first collection is left to the collector: forced at the prompt, it took an idle line chat's
// client from 4.2 to 4.7 MiB (bench/SIZES.md).
// The zero value is ready; it is not safe for concurrent use.
type Releaser struct {
	lastAlloc    uint64    // the process's allocated bytes at the last look
	lastLook     time.Time // zero before the first look
	sinceRelease uint64    // bytes allocated since the last collection
	lastCycles   uint64    // the collections the process had run at the last look
	quietSince   time.Time // zero while busy
	samples      [2]metrics.Sample
}

// Look takes the process's total of allocated bytes and of collections at now and reports
// whether to release.
func (r *Releaser) Look(allocated, cycles uint64, now time.Time) bool {
	delta := allocated - r.lastAlloc
	if cycles != r.lastCycles { // collected since the last look: count from there
		r.lastCycles, r.sinceRelease = cycles, 0
	}
	elapsed := now.Sub(r.lastLook)
	first := r.lastLook.IsZero()
	r.lastAlloc, r.lastLook = allocated, now
	r.sinceRelease += delta
	if !first && float64(delta) >= QuietRate*elapsed.Seconds() {
		r.quietSince = time.Time{}
		return false
	}
	if r.quietSince.IsZero() {
		r.quietSince = now
	}
	if now.Sub(r.quietSince) < QuietFor || r.sinceRelease < ReleaseAfter || cycles == 0 {
		return false
	}
	r.sinceRelease = 0
	return true
}

// ReleaseIfQuiet looks at the process's allocations and releases its unused memory when Look
// says it is time.
func (r *Releaser) ReleaseIfQuiet(now time.Time) {
	allocated, cycles := r.read()
	if r.Look(allocated, cycles, now) {
		debug.FreeOSMemory()
	}
}

// read takes the process's total of bytes allocated on the heap so far and of collections
// run (no stop of the world, unlike runtime.ReadMemStats, and no allocation: the samples are
// kept). A release is itself a collection, which Look then sees.
func (r *Releaser) read() (allocated, cycles uint64) {
	r.samples[0].Name, r.samples[1].Name = "/gc/heap/allocs:bytes", "/gc/cycles/total:gc-cycles"
	metrics.Read(r.samples[:])
	if r.samples[0].Value.Kind() == metrics.KindUint64 {
		allocated = r.samples[0].Value.Uint64()
	}
	if r.samples[1].Value.Kind() == metrics.KindUint64 {
		cycles = r.samples[1].Value.Uint64()
	}
	return allocated, cycles
}

// LookEvery is how often Start looks: once a second wakes an idle process little.
const LookEvery = time.Second

// Start releases as a Releaser says, looking every LookEvery on a goroutine it starts, until
// the returned stop is called. A process with no loop of its own to look from (a chat client)
// runs it for as long as it waits on its user.
func Start() (stop func()) {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(LookEvery)
		defer tick.Stop()
		var r Releaser
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				r.ReleaseIfQuiet(now)
			}
		}
	}()
	return func() { close(done) }
}
