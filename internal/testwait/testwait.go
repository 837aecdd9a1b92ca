// Package testwait is the one home of test timeouts: every deadline a test waits on comes
// from Scale, so a loaded machine (CI on two cores, -race, another build running) gets more
// time without any test carrying its own magic number, and every wait polls for a condition
// instead of sleeping a fixed time.
package testwait

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// factor is read from TROUPE_TEST_TIMEOUT_SCALE (default 1; values below 1 are ignored). It
// is read on every call rather than cached so tests never share a package-level variable.
func factor() float64 {
	f, err := strconv.ParseFloat(os.Getenv("TROUPE_TEST_TIMEOUT_SCALE"), 64)
	if err != nil || f < 1 {
		return 1
	}
	return f
}

// Scale stretches a test deadline by the configured factor.
func Scale(d time.Duration) time.Duration {
	return time.Duration(float64(d) * factor())
}

// For polls cond every 10 ms until it returns nil, failing the test with cond's last error
// when the scaled deadline d passes.
func For(t testing.TB, d time.Duration, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(Scale(d))
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v: %v", Scale(d), err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Until is For with a boolean condition and a description of what is awaited.
func Until(t testing.TB, d time.Duration, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(Scale(d))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", Scale(d), what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Returns runs fn on a goroutine and waits for it to return, at most d (scaled): for bounds on
// work that must end, such as a parser given hostile input.
func Returns(t testing.TB, d time.Duration, fn func(), what string) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	Until(t, d, func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}, what)
}
