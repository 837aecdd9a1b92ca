package actors

import (
	"testing"
	"time"
)

func TestIdleReleaseOncePerQuietSpell(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type look struct {
		alloc uint64 // the process's total at this look
		ms    int
		want  bool
	}
	const mib = 1 << 20
	for _, tc := range []struct {
		name  string
		looks []look
	}{
		{"start: busy, then quiet for a second: one release", []look{
			{10 * mib, 0, false}, {10*mib + 1000, 200, false}, {10*mib + 2000, 800, false},
			{10*mib + 3000, 1200, true}, {10*mib + 4000, 1400, false}, {10*mib + 5000, 5000, false}}},
		{"a burst ends the quiet spell and starts the count again", []look{
			{10 * mib, 0, false}, {10 * mib, 200, false}, {11 * mib, 900, false},
			{11 * mib, 1100, false}, {11 * mib, 1900, false}, {11 * mib, 2200, true}}},
		{"quiet but little allocated since the last release: none", []look{
			{10 * mib, 0, false}, {10 * mib, 100, false}, {10 * mib, 1200, true},
			{10*mib + 200<<10, 1400, false}, {10*mib + 400<<10, 1600, false}, {10*mib + 600<<10, 9000, false}}},
		{"slow allocation adds up to a second release", []look{
			{10 * mib, 0, false}, {10 * mib, 100, false}, {10 * mib, 1200, true},
			{10*mib + 200<<10, 1400, false}, {10*mib + 400<<10, 1600, false}, {10*mib + 600<<10, 1800, false},
			{10*mib + 800<<10, 2000, false}, {10*mib + 1000<<10, 2200, false}, {11*mib + 100<<10, 2400, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r idleRelease
			for i, l := range tc.looks {
				if got := r.look(l.alloc, at(l.ms)); got != l.want {
					t.Fatalf("look %d (%d bytes at %d ms): release %v, want %v", i, l.alloc, l.ms, got, l.want)
				}
			}
		})
	}
}
