package initgc

import (
	"os"
	"runtime/debug"
	"strconv"
	"testing"
)

func TestDoneRestoresGOGC(t *testing.T) {
	want := 100
	if v, err := strconv.Atoi(os.Getenv("GOGC")); err == nil {
		want = v
	} else if os.Getenv("GOGC") == "off" {
		want = -1
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("before Done the collector is at %d%%, want off", got)
	}
	debug.SetGCPercent(-1)
	Done()
	Done() // a second call changes nothing
	if got := debug.SetGCPercent(want); got != want {
		t.Errorf("after Done the collector is at %d%%, want GOGC's %d", got, want)
	}
}
