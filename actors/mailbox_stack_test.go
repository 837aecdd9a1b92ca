package actors

import (
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// TestRunnersNeverQueueARun: every run starts while the others still run (a run is never
// queued behind another, however many more than the idle runners there are), runners are
// reused once idle, and after stop, and without runners (nil), runs still run.
func TestRunnersNeverQueueARun(t *testing.T) {
	r := newRunners()
	const n = 3 * maxIdleRunners
	release := make(chan struct{})
	started := make(chan int, n)
	for i := range n {
		r.Go(func() {
			started <- i
			<-release
		})
	}
	seen := map[int]bool{}
	deadline := time.After(testwait.Scale(10 * time.Second))
	for len(seen) < n {
		select {
		case i := <-started:
			seen[i] = true
		case <-deadline:
			t.Fatalf("%d of %d runs started while the others ran", len(seen), n)
		}
	}
	close(release)
	testwait.Until(t, 10*time.Second, func() bool { return r.idle.Load() == maxIdleRunners }, "the runners to wait for work")

	for _, runs := range []*runners{r, nil} {
		var wg sync.WaitGroup
		for range 2 * n {
			wg.Add(1)
			runs.Go(wg.Done)
		}
		wg.Wait()
	}
	r.stop()
	testwait.Until(t, 10*time.Second, func() bool { return r.idle.Load() == 0 }, "the waiting runners to end")
	done := make(chan struct{})
	r.Go(func() { close(done) })
	select {
	case <-done:
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("a run after stop did not run")
	}
	r.stop() // twice is fine
}
