package llm

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// RetryPolicy says how StreamWithRetry retries a failed call (docs/DESIGN-NOTES.md "Provider errors
// and retries").
type RetryPolicy struct {
	// MaxAttempts counts the first call; 1 means no retry, 0 means the default (6).
	MaxAttempts int
	// BaseDelay is the first backoff ceiling; it doubles each attempt up to MaxDelay.
	BaseDelay, MaxDelay time.Duration
	// OnRetry, when set, is told before each wait: text streamed by the failed attempt is
	// superseded by the next one.
	OnRetry func(RetryInfo)
	// Sleep waits d or until ctx ends; nil sleeps for real.
	Sleep func(ctx context.Context, d time.Duration) error
	// IdleTimeout fails an attempt (Retryable, ErrStreamStalled) when its stream, once begun,
	// sends nothing for this long; 0 means DefaultIdleTimeout, negative turns it off.
	IdleTimeout time.Duration
}

// RetryInfo describes one retry about to happen.
type RetryInfo struct {
	Attempt int           // the attempt that failed, from 1
	Delay   time.Duration // the wait before the next attempt
	Err     *Error
}

// maxRetryAfter bounds how long a provider's retry-after is honoured: past that the user is
// better served by a failure they can act on.
const maxRetryAfter = 60 * time.Second

// DefaultRetryPolicy is 6 attempts with full-jitter backoff from 1 s, capped at 30 s, and a
// 90 s idle timeout on each stream.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxAttempts: 6, BaseDelay: time.Second, MaxDelay: 30 * time.Second, IdleTimeout: DefaultIdleTimeout}
}

// StreamWithRetry calls p.Stream, retrying Retryable failures with exponential backoff and full
// jitter, honouring a retry-after up to 60 s. Fatal, Overflow and Canceled failures return at
// once; a server that cannot be reached at all is retried only once (it is almost always a
// wrong --base-url or a local server that is not running). Providers never run tools, so
// retrying a stream dropped mid-reply cannot run a tool twice.
func StreamWithRetry(ctx context.Context, p Provider, req *Request, emit func(Event), pol RetryPolicy) (*Reply, error) {
	pol = pol.withDefaults()
	for attempt := 1; ; attempt++ {
		reply, err := streamWatched(ctx, p, req, emit, pol.IdleTimeout)
		if err == nil {
			return reply, nil
		}
		e := asError(err)
		if ctx.Err() != nil {
			return nil, &Error{Class: Canceled, Provider: e.Provider, Err: ctx.Err()}
		}
		last := attempt >= pol.MaxAttempts || (IsUnreachable(e) && attempt >= 2)
		if e.Class != Retryable || last {
			return nil, e
		}
		delay := pol.delay(attempt, e.RetryAfter)
		if pol.OnRetry != nil {
			pol.OnRetry(RetryInfo{Attempt: attempt, Delay: delay, Err: e})
		}
		if err := pol.Sleep(ctx, delay); err != nil {
			return nil, &Error{Class: Canceled, Provider: e.Provider, Err: err}
		}
	}
}

func (pol RetryPolicy) withDefaults() RetryPolicy {
	def := DefaultRetryPolicy()
	if pol.MaxAttempts <= 0 {
		pol.MaxAttempts = def.MaxAttempts
	}
	if pol.BaseDelay <= 0 {
		pol.BaseDelay = def.BaseDelay
	}
	if pol.MaxDelay <= 0 {
		pol.MaxDelay = def.MaxDelay
	}
	if pol.IdleTimeout == 0 {
		pol.IdleTimeout = def.IdleTimeout
	}
	if pol.Sleep == nil {
		pol.Sleep = sleepContext
	}
	return pol
}

// delay is full jitter over min(MaxDelay, BaseDelay·2^(attempt-1)), unless the provider said
// when to come back.
func (pol RetryPolicy) delay(attempt int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, maxRetryAfter)
	}
	ceiling := pol.BaseDelay << min(attempt-1, 20)
	if ceiling <= 0 || ceiling > pol.MaxDelay {
		ceiling = pol.MaxDelay
	}
	return time.Duration(rand.Int64N(int64(ceiling)) + 1)
}

// asError classes any error from a provider; unclassified ones are treated as transport
// failures.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return ClassifyErr("", err)
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
