package actors

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

func TestFreshFlightJoinsCallersAndNeverServesAnOlderResult(t *testing.T) {
	var f freshFlight[int]
	var calls atomic.Int32
	release := make(chan struct{})
	started := make(chan int, 10)
	fn := func() (int, error) {
		n := int(calls.Add(1))
		started <- n
		<-release
		return n, nil
	}
	ctx := context.Background()
	first := make(chan int, 1)
	go func() { v, _ := f.do(ctx, fn); first <- v }()
	if n := <-started; n != 1 {
		t.Fatalf("first call %d", n)
	}
	// Asked while call 1 runs: they must get call 2 (which starts after they asked), all of
	// them the same one.
	var wg sync.WaitGroup
	got := make([]int, 5)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _ = f.do(ctx, fn) }()
	}
	testwait.Until(t, 10*time.Second, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.next != nil && f.next.waiters == len(got)
	}, "every caller waits on the next call")
	close(release)
	if v := <-first; v != 1 {
		t.Fatalf("the first caller got %d", v)
	}
	wg.Wait()
	for i, v := range got {
		if v != 2 {
			t.Errorf("caller %d got call %d, want 2: the one that began after it asked, shared", i, v)
		}
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d calls for 6 callers in two waves", n)
	}
}

func TestFreshFlightCallerGivesUpAlone(t *testing.T) {
	var f freshFlight[string]
	release := make(chan struct{})
	fn := func() (string, error) { <-release; return "", errors.New("it failed") }
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.do(ctx, fn); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled caller: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := f.do(context.Background(), fn); done <- err }()
	close(release)
	if err := <-done; err == nil || err.Error() != "it failed" {
		t.Fatalf("the other caller: %v", err)
	}
}
