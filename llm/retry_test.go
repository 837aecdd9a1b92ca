package llm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
	"time"
)

// failingProvider fails with errs in turn, then answers.
type failingProvider struct {
	errs  []error
	calls int
}

func (f *failingProvider) Stream(ctx context.Context, _ *Request, _ func(Event)) (*Reply, error) {
	f.calls++
	if f.calls <= len(f.errs) {
		return nil, f.errs[f.calls-1]
	}
	return &Reply{Text: "ok", Stop: StopEnd}, nil
}

func noSleep(slept *[]time.Duration) func(context.Context, time.Duration) error {
	return func(_ context.Context, d time.Duration) error { *slept = append(*slept, d); return nil }
}

func TestStreamWithRetryClasses(t *testing.T) {
	refused := ClassifyErr("p", &net.OpError{Op: "dial", Err: fmt.Errorf("connect: %w", syscall.ECONNREFUSED)})
	for _, tc := range []struct {
		name      string
		errs      []error
		attempts  int
		wantCalls int
		wantClass ErrorClass // 0: success
	}{
		{"fatal is not retried", []error{&Error{Class: Fatal, Status: 403}}, 6, 1, Fatal},
		{"overflow is not retried", []error{&Error{Class: Overflow, Status: 400}}, 6, 1, Overflow},
		{"canceled is not retried", []error{&Error{Class: Canceled}}, 6, 1, Canceled},
		{"retryable until success", []error{&Error{Class: Retryable, Status: 503}, errors.New("reset")}, 6, 3, 0},
		{"attempts run out", []error{&Error{Class: Retryable}, &Error{Class: Retryable}, &Error{Class: Retryable}}, 3, 3, Retryable},
		{"max attempts 1 never retries", []error{&Error{Class: Retryable}}, 1, 1, Retryable},
		{"unreachable is retried once", []error{refused, refused, refused}, 6, 2, Retryable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &failingProvider{errs: tc.errs}
			var slept []time.Duration
			_, err := StreamWithRetry(context.Background(), p, &Request{}, func(Event) {},
				RetryPolicy{MaxAttempts: tc.attempts, Sleep: noSleep(&slept)})
			if p.calls != tc.wantCalls {
				t.Errorf("calls = %d, want %d", p.calls, tc.wantCalls)
			}
			switch {
			case tc.wantClass == 0 && err != nil:
				t.Errorf("err = %v, want success", err)
			case tc.wantClass != 0 && ClassOf(err) != tc.wantClass:
				t.Errorf("err = %v (%s), want %s", err, ClassOf(err), tc.wantClass)
			}
			if len(slept) != p.calls-1 && tc.wantClass == 0 {
				t.Errorf("slept %d times for %d calls", len(slept), p.calls)
			}
		})
	}
}

func TestRetryDelaysAreJitteredCappedAndHonourRetryAfter(t *testing.T) {
	pol := RetryPolicy{BaseDelay: time.Second, MaxDelay: 30 * time.Second}.withDefaults()
	for attempt := 1; attempt <= 12; attempt++ {
		ceiling := min(time.Second<<(attempt-1), 30*time.Second)
		for range 50 {
			if d := pol.delay(attempt, 0); d <= 0 || d > ceiling {
				t.Fatalf("attempt %d: delay %v outside (0, %v]", attempt, d, ceiling)
			}
		}
	}
	if d := pol.delay(1, 5*time.Second); d != 5*time.Second {
		t.Errorf("retry-after 5s gave %v", d)
	}
	if d := pol.delay(1, 10*time.Minute); d != time.Minute {
		t.Errorf("retry-after 10m gave %v, want the 60s bound", d)
	}
	seen := map[time.Duration]bool{}
	for range 20 {
		seen[pol.delay(5, 0)] = true
	}
	if len(seen) < 5 {
		t.Errorf("20 delays gave only %d distinct values: no jitter", len(seen))
	}
}

func TestStreamWithRetryStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := &failingProvider{errs: []error{&Error{Class: Retryable}, &Error{Class: Retryable}}}
	_, err := StreamWithRetry(ctx, p, &Request{}, func(Event) {}, RetryPolicy{
		Sleep: func(ctx context.Context, d time.Duration) error { cancel(); <-ctx.Done(); return ctx.Err() }})
	if ClassOf(err) != Canceled || p.calls != 1 {
		t.Fatalf("err = %v after %d calls, want Canceled after 1", err, p.calls)
	}
}
