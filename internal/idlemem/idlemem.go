// Package idlemem hands the memory a quiet troupe process no longer uses back to the system.
//
// A chat client and its node spend most of their life waiting: for a model, for the user at
// the prompt, for the next client. While they wait they still allocate a little (a Node's
// watch loop, badger's compactor ticks, a full-screen chat's cursor blink: 10-35 KB/s), and
// with the heap far below the collector's goal nothing collects it: each such allocation takes
// fresh pages, and an idle chat grew by about 1 MiB every 30-60 s until the collector's goal
// (bench/SIZES.md). A Releaser collects and returns the freed pages (debug.FreeOSMemory) once a
// process has gone quiet, and again each time a little more has been allocated while quiet, so
// what a waiting process holds stays close to what it uses.
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
	// ReleaseAfter is how much must have been allocated since the last release for another:
	// a release is a collection (a millisecond or two of CPU for these heaps), so a process
	// idle for hours releases once per ReleaseAfter allocated, and holds at most about that
	// much of garbage meanwhile.
	ReleaseAfter = 256 << 10
)

// Releaser decides when to release: once per quiet spell, after QuietFor allocating less than
// QuietRate, and only when at least ReleaseAfter was allocated since the last release.
// The zero value is ready; it is not safe for concurrent use.
type Releaser struct {
	lastAlloc    uint64    // the process's allocated bytes at the last look
	lastLook     time.Time // zero before the first look
	sinceRelease uint64    // bytes allocated since the last release
	quietSince   time.Time // zero while busy
	sample       [1]metrics.Sample
}

// Look takes the process's total of allocated bytes at now and reports whether to release.
func (r *Releaser) Look(allocated uint64, now time.Time) bool {
	delta := allocated - r.lastAlloc
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
	if now.Sub(r.quietSince) < QuietFor || r.sinceRelease < ReleaseAfter {
		return false
	}
	r.sinceRelease = 0
	return true
}

// ReleaseIfQuiet looks at the process's allocations and releases its unused memory when Look
// says it is time.
func (r *Releaser) ReleaseIfQuiet(now time.Time) {
	if r.Look(r.heapAllocs(), now) {
		debug.FreeOSMemory()
	}
}

// heapAllocs is the process's total of bytes allocated on the heap so far (no stop of the
// world, unlike runtime.ReadMemStats, and no allocation: the sample is kept).
func (r *Releaser) heapAllocs() uint64 {
	r.sample[0].Name = "/gc/heap/allocs:bytes"
	metrics.Read(r.sample[:])
	if r.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return r.sample[0].Value.Uint64()
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
