package llm

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// ErrorClass says what the caller should do about a failed call.
type ErrorClass int

const (
	// Retryable: 429, 5xx, timeouts, refused connections, streams dropped mid-reply.
	Retryable ErrorClass = iota + 1
	// Fatal: authentication, permission, bad request, unknown model. Never retried.
	Fatal
	// Overflow: the prompt is longer than the model's context window. Compact, then retry once.
	Overflow
	// Canceled: the caller's context ended.
	Canceled
)

func (c ErrorClass) String() string {
	switch c {
	case Retryable:
		return "retryable"
	case Fatal:
		return "fatal"
	case Overflow:
		return "context_overflow"
	case Canceled:
		return "canceled"
	}
	return "unknown"
}

// Error is a classified provider failure.
type Error struct {
	Class      ErrorClass
	Status     int           // HTTP status, 0 when there was no response
	RetryAfter time.Duration // from a retry-after header, 0 when absent
	Provider   string        // e.g. "openai"
	Err        error
}

// Error says what happened in plain words ("openai replied 401 Unauthorized: …"); the class is
// for code to act on (ClassOf), not for people to read.
func (e *Error) Error() string {
	if e.Status != 0 {
		if text := http.StatusText(e.Status); text != "" {
			return fmt.Sprintf("%s replied %d %s: %v", e.Provider, e.Status, text, e.Err)
		}
		return fmt.Sprintf("%s replied %d: %v", e.Provider, e.Status, e.Err) // 524 and other proxy codes
	}
	return fmt.Sprintf("%s: %v", e.Provider, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ClassOf returns the class of err: the Class of an *Error in its chain, else Retryable for
// anything unclassified (a dropped connection is the common case).
func ClassOf(err error) ErrorClass {
	var e *Error
	if errors.As(err, &e) {
		return e.Class
	}
	return Retryable
}
