package initgc

import (
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// gogc is the collector setting GOGC asks for: what Done must restore.
func gogc() int {
	if v, err := strconv.Atoi(os.Getenv("GOGC")); err == nil {
		return v
	} else if os.Getenv("GOGC") == "off" {
		return -1
	}
	return 100
}

// The whole life of the package in one test (Done works once per process): off during
// initialisation, still off under StartLimit after Start, back on as GOGC and GOMEMLIMIT set it
// once StartGrace has passed, and a later Done changes nothing.
func TestStartHoldsTheCollectorThenRestoresIt(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("the test checks the limit against none set")
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("before Start the collector is at %d%%, want off", got)
	}
	began := time.Now()
	Start()
	if got := debug.SetMemoryLimit(-1); got != StartLimit {
		t.Errorf("after Start the memory limit is %d, want StartLimit %d", got, StartLimit)
	}
	if got := debug.SetGCPercent(-1); got != -1 && time.Since(began) < StartGrace {
		t.Errorf("right after Start the collector is at %d%%, want off", got)
	}
	testwait.Until(t, 10*StartGrace, func() bool { return debug.SetMemoryLimit(-1) == math.MaxInt64 }, "the memory limit to be lifted")
	if waited := time.Since(began); waited < StartGrace {
		t.Errorf("the collector came back after %v, before StartGrace (%v)", waited, StartGrace)
	}
	want := gogc()
	if got := debug.SetGCPercent(want); got != want {
		t.Errorf("after the grace the collector is at %d%%, want GOGC's %d", got, want)
	}
	debug.SetGCPercent(-1)
	Done() // a later call changes nothing
	if got := debug.SetGCPercent(want); got != -1 {
		t.Errorf("a second Done set the collector to %d%%, want it left as it was (off)", got)
	}
}
