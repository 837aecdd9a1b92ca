package idlemem

import (
	"testing"
	"time"
)

func TestReleaserReleasesOncePerQuietSpell(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type look struct {
		alloc uint64 // the process's total at this look
		ms    int
		want  bool
	}
	const mib, kib = 1 << 20, 1 << 10
	for _, tc := range []struct {
		name  string
		looks []look
	}{
		{"start, then quiet for a second: one release", []look{
			{10 * mib, 0, false}, {10*mib + 1000, 200, false}, {10*mib + 2000, 800, false},
			{10*mib + 3000, 1200, true}, {10*mib + 4000, 1400, false}, {10*mib + 5000, 5000, false}}},
		{"a burst ends the quiet spell and starts the count again", []look{
			{10 * mib, 0, false}, {10 * mib, 200, false}, {11 * mib, 900, false},
			{11 * mib, 1100, false}, {11 * mib, 1900, false}, {11 * mib, 2200, true}}},
		{"quiet but little allocated since the last release: none", []look{
			{10 * mib, 0, false}, {10 * mib, 100, false}, {10 * mib, 1200, true},
			{10*mib + 20*kib, 1400, false}, {10*mib + 40*kib, 1600, false}, {10*mib + 60*kib, 9000, false}}},
		{"slow allocation adds up to a second release", []look{
			{10 * mib, 0, false}, {10 * mib, 100, false}, {10 * mib, 1200, true},
			{10*mib + 100*kib, 2000, false}, {10*mib + 200*kib, 2800, false}, {10*mib + 300*kib, 3600, true}}},
		{"a rate over QuietRate is busy however far apart the looks", []look{
			{10 * mib, 0, false}, {10*mib + 300*kib, 1000, false}, {10*mib + 600*kib, 2000, false},
			{10*mib + 600*kib, 3000, false}, {10*mib + 600*kib, 3900, false}, {10*mib + 600*kib, 4000, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Releaser
			for i, l := range tc.looks {
				if got := r.Look(l.alloc, at(l.ms)); got != l.want {
					t.Fatalf("look %d (%d bytes at %d ms): release %v, want %v", i, l.alloc, l.ms, got, l.want)
				}
			}
		})
	}
}

// ReleaseIfQuiet reads the process's own allocation counter: a process that allocated more than
// ReleaseAfter and then stayed quiet for QuietFor is released.
func TestReleaseIfQuietReadsTheProcess(t *testing.T) {
	var r Releaser
	garbage := make([][]byte, 0, 64)
	for range 64 {
		garbage = append(garbage, make([]byte, 64<<10))
	}
	garbage = nil
	t0 := time.Now()
	r.ReleaseIfQuiet(t0)
	r.ReleaseIfQuiet(t0.Add(2 * QuietFor))
	if r.sinceRelease != 0 {
		t.Fatalf("no release after %d bytes allocated and two quiet seconds", r.sinceRelease)
	}
	_ = garbage
}
