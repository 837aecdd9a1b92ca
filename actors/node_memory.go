package actors

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A Node in its own process lives on between runs, mostly waiting: for a model, for a user at
// a chat prompt, for the next client. Once it has gone quiet it hands the memory it no longer
// uses back to the system (debug.FreeOSMemory: a collection, then the freed pages returned),
// as an idle chat client does, so what it holds while it waits is what it uses
// (bench/startup.sh, "chat idle").

// idleRelease decides when: once per quiet spell, after quietFor with less than quietBytes
// allocated between looks, and only when at least releaseAfter was allocated since the last
// release (a Node idle for hours releases once, not every spell of its own watch loop).
type idleRelease struct {
	lastAlloc    uint64    // the process's allocated bytes at the last look
	sinceRelease uint64    // bytes allocated since the last release
	quietSince   time.Time // zero while busy
}

const (
	quietBytes   = 256 << 10
	quietFor     = time.Second
	releaseAfter = 1 << 20
)

// look takes the process's total of allocated bytes at now and reports whether to release.
func (r *idleRelease) look(allocated uint64, now time.Time) bool {
	delta := allocated - r.lastAlloc
	r.lastAlloc = allocated
	r.sinceRelease += delta
	if delta >= quietBytes {
		r.quietSince = time.Time{}
		return false
	}
	if r.quietSince.IsZero() {
		r.quietSince = now
	}
	if now.Sub(r.quietSince) < quietFor || r.sinceRelease < releaseAfter {
		return false
	}
	r.sinceRelease = 0
	return true
}

// heapAllocs is the process's total of bytes allocated on the heap so far (no stop of the world,
// unlike runtime.ReadMemStats).
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// releaseIfQuiet releases the Node's unused memory when r says it is time.
func (r *idleRelease) releaseIfQuiet(now time.Time) {
	if r.look(heapAllocs(), now) {
		debug.FreeOSMemory()
	}
}
