package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// DefaultIdleTimeout is how long a stream may go without an event once it has begun.
const DefaultIdleTimeout = 90 * time.Second

// ErrStreamStalled is wrapped by the Retryable *Error of an attempt whose stream went silent for
// longer than the idle timeout after its first event.
var ErrStreamStalled = errors.New("the provider stream stalled")

// streamWatched runs one attempt of p.Stream and fails it as Retryable when, once the reply has
// begun, nothing arrives for idle. "Something" is any bytes of the response body (adapters read
// it through watchedClient) or any event: a long tool-call argument streams for a minute
// without a complete event, and must not count as a stall. The wait for the first bytes is not
// bounded here: a reasoning model may think for minutes before it says anything. idle ≤ 0
// turns the watch off.
func streamWatched(ctx context.Context, p Provider, req *Request, emit func(Event), idle time.Duration) (*Reply, error) {
	if idle <= 0 {
		return p.Stream(ctx, req, emit)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watch := &idleWatch{idle: idle, expire: func() { cancel(ErrStreamStalled) }}
	defer watch.stop()
	ctx = context.WithValue(ctx, idleWatchKey{}, watch)
	reply, err := p.Stream(ctx, req, func(ev Event) {
		watch.touch()
		emit(ev)
	})
	if err != nil && errors.Is(context.Cause(ctx), ErrStreamStalled) {
		e := asError(err)
		return nil, &Error{Class: Retryable, Provider: e.Provider,
			Err: fmt.Errorf("no data for %s after the reply began: %w", idle, ErrStreamStalled)}
	}
	return reply, err
}

// idleWatch calls expire when touch has not been called for idle since the last touch. It is
// armed by the first touch.
type idleWatch struct {
	idle   time.Duration
	expire func()

	mu    sync.Mutex
	timer *time.Timer
}

func (w *idleWatch) touch() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer == nil {
		w.timer = time.AfterFunc(w.idle, w.expire)
		return
	}
	w.timer.Reset(w.idle)
}

func (w *idleWatch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
	}
}

// idleWatchKey carries the attempt's idleWatch in its context down to the HTTP body reads.
type idleWatchKey struct{}

// watchedClient returns a client like base (nil: a default one) whose response bodies tell the
// request's idleWatch, if its context carries one, each time bytes arrive.
func watchedClient(base *http.Client) *http.Client {
	c := &http.Client{}
	if base != nil {
		*c = *base
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = watchedTransport{next: next}
	return c
}

type watchedTransport struct{ next http.RoundTripper }

func (t watchedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if watch, ok := req.Context().Value(idleWatchKey{}).(*idleWatch); ok {
		resp.Body = watchedBody{ReadCloser: resp.Body, watch: watch}
	}
	return resp, nil
}

type watchedBody struct {
	io.ReadCloser
	watch *idleWatch
}

func (b watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.watch.touch()
	}
	return n, err
}
