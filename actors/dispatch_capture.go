package actors

import (
	"context"
	"sync"
)

// freshFlight runs one call of a function for every caller waiting on it, and never hands a
// caller a result computed before it asked: a caller joins the next call, which starts when the
// running one (if any) ends. A burst of n tasks dispatched at once captures the parent's
// checkout (gitship.Capture: several git commands and a bundle upload) twice at most instead of
// n times, and asks the server whether a worker is attached as rarely, while each task still
// carries the checkout as it was when the task was asked for (bench/workers: 10,000 agents).
// The zero value is ready; it is safe for concurrent use.
type freshFlight[T any] struct {
	mu      sync.Mutex
	next    *flightCall[T] // the call the callers that come now wait for (not started yet)
	running bool
}

type flightCall[T any] struct {
	done    chan struct{}
	value   T
	err     error
	waiters int // callers that joined it
}

// do waits for the next call of fn and returns its result, or ctx's error if ctx ends first
// (the call goes on for the other callers). fn gets a context of its own: it serves every
// caller, not the first one.
func (f *freshFlight[T]) do(ctx context.Context, fn func() (T, error)) (T, error) {
	f.mu.Lock()
	if f.next == nil {
		f.next = &flightCall[T]{done: make(chan struct{})}
	}
	c := f.next
	c.waiters++
	if !f.running {
		f.start(fn)
	}
	f.mu.Unlock()
	select {
	case <-c.done:
		return c.value, c.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// start runs the waiting call; f.mu is held.
func (f *freshFlight[T]) start(fn func() (T, error)) {
	c := f.next
	f.next, f.running = nil, true
	go func() {
		c.value, c.err = fn()
		close(c.done)
		f.mu.Lock()
		defer f.mu.Unlock()
		f.running = false
		if f.next != nil {
			f.start(fn)
		}
	}()
}
