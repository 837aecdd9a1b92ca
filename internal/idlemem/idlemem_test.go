package idlemem

import (
	"runtime"
	"testing"
	"time"
)

func TestReleaserReleasesOncePerQuietSpell(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type look struct {
		alloc  uint64 // the process's total at this look
		cycles uint64 // the collections it has run
		ms     int
		want   bool
	}
	const mib, kib = 1 << 20, 1 << 10
	for _, tc := range []struct {
		name  string
		looks []look
	}{
		{"start, then quiet for a second: one release", []look{
			{10 * mib, 1, 0, false}, {10*mib + 1000, 1, 200, false}, {10*mib + 2000, 1, 800, false},
			{10*mib + 3000, 1, 1200, true}, {10*mib + 4000, 2, 1400, false}, {10*mib + 5000, 2, 5000, false}}},
		{"no collection yet: the first is the collector's", []look{
			{10 * mib, 0, 0, false}, {10 * mib, 0, 1200, false}, {10 * mib, 0, 5000, false},
			{12 * mib, 1, 6000, false}, {12*mib + 600*kib, 1, 9000, false}, {12*mib + 700*kib, 1, 10500, true}}},
		{"a burst ends the quiet spell and starts the count again", []look{
			{10 * mib, 1, 0, false}, {10 * mib, 1, 200, false}, {11 * mib, 1, 900, false},
			{11 * mib, 1, 1100, false}, {11 * mib, 1, 1900, false}, {11 * mib, 1, 2200, true}}},
		{"quiet but little allocated since the last release: none", []look{
			{10 * mib, 1, 0, false}, {10 * mib, 1, 100, false}, {10 * mib, 1, 1200, true},
			{10*mib + 200*kib, 2, 2400, false}, {10*mib + 400*kib, 2, 4000, false}, {10*mib + 600*kib, 2, 9000, false}}},
		{"slow allocation adds up to a second release", []look{
			{10 * mib, 1, 0, false}, {10 * mib, 1, 100, false}, {10 * mib, 1, 1200, true},
			{10*mib + 400*kib, 2, 3000, false}, {10*mib + 800*kib, 2, 5000, false}, {11*mib + 100*kib, 2, 7000, true}}},
		{"the collector's own collection starts the count again", []look{
			{10 * mib, 1, 0, false}, {10 * mib, 1, 100, false}, {10 * mib, 2, 1200, false},
			{10*mib + 900*kib, 2, 6000, false}, {11*mib + 100*kib, 2, 7000, true}}},
		{"a rate over QuietRate is busy however far apart the looks", []look{
			{10 * mib, 1, 0, false}, {10*mib + 300*kib, 1, 1000, false}, {10*mib + 600*kib, 1, 2000, false},
			{10*mib + 600*kib, 1, 3000, false}, {10*mib + 600*kib, 1, 3900, false}, {10*mib + 600*kib, 1, 4000, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Releaser
			for i, l := range tc.looks {
				if got := r.Look(l.alloc, l.cycles, at(l.ms)); got != l.want {
					t.Fatalf("look %d (%d bytes, %d collections at %d ms): release %v, want %v", i, l.alloc, l.cycles, l.ms, got, l.want)
				}
			}
		})
	}
}

// ReleaseIfQuiet reads the process's own counters: a process that allocated more than
// ReleaseAfter and then stayed quiet for QuietFor is collected, which the next look sees.
func TestReleaseIfQuietReadsTheProcess(t *testing.T) {
	var r Releaser
	keep := make([][]byte, 0, 64)
	for range 64 {
		keep = append(keep, make([]byte, 64<<10)) // 4 MiB: more than ReleaseAfter
	}
	keep = nil
	runtime.GC() // no collection of the runtime's own may end between the two looks
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	r.ReleaseIfQuiet(t0)
	r.ReleaseIfQuiet(t0.Add(2 * QuietFor))
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if after.NumForcedGC == before.NumForcedGC {
		t.Fatalf("no release after %d bytes allocated and two quiet seconds", r.sinceRelease)
	}
	_ = keep
}
