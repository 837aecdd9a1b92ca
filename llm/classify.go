package llm

import (
	"context"
	"errors"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/llm/openai"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ClassifyHTTP turns a provider's HTTP error response into a classed *Error (docs/DESIGN-NOTES.md
// "Provider errors and retries"): 408/409/425/429/5xx (and Anthropic's 529 "overloaded") are
// Retryable with any retry-after honoured; a 400/413 that says the prompt is too long is Overflow;
// other 4xx are Fatal. body is the provider's error text (its message is kept so the user sees
// why); err, when not nil, is kept in the chain.
func ClassifyHTTP(provider string, status int, header http.Header, body string, err error) *Error {
	msg := providerMessage(body)
	if msg == "" && err != nil {
		msg = err.Error()
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	e := &Error{Provider: provider, Status: status, Err: httpError{status: status, msg: clipMessage(msg), cause: err}}
	switch {
	case status == http.StatusTooManyRequests || status == http.StatusRequestTimeout ||
		status == http.StatusConflict || status == http.StatusTooEarly || status >= 500:
		e.Class = Retryable
		e.RetryAfter = retryAfter(header, time.Now())
	case (status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge) && saysTooLong(msg):
		e.Class = Overflow
	default:
		e.Class = Fatal
		e.Err = httpError{status: status, msg: clipMessage(msg), hint: setupHint(status, msg), cause: err}
	}
	return e
}

// setupHint is what to do about a refusal that no retry fixes, for the ones people meet on
// their first day with a local or new model; "" when the server's words say enough.
func setupHint(status int, msg string) string {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "does not support tools") || strings.Contains(m, "does not support function") ||
		strings.Contains(m, "tools are not supported") || strings.Contains(m, "tool use is not supported"):
		return "troupe works through tool calls: choose a model that supports them (for Ollama, e.g. qwen2.5-coder or llama3.1)"
	case status == http.StatusNotFound && strings.Contains(m, "model") &&
		(strings.Contains(m, "not exist") || strings.Contains(m, "not found")):
		return "check the model name (troupe doctor --model M --base-url URL lists the models the endpoint serves)"
	}
	return ""
}

// ClassifyErr classes a failure that has no HTTP status: the caller's context ending is
// Canceled; everything else on the wire (refused or reset connections, timeouts, a stream that
// ended early) is Retryable. The original error stays in the chain so IsUnreachable still sees
// it.
func ClassifyErr(provider string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Class: Canceled, Provider: provider, Err: err}
	}
	return &Error{Class: Retryable, Provider: provider, Err: transportError{err}}
}

// httpError carries the provider's own message for an HTTP failure.
type httpError struct {
	status int
	msg    string
	hint   string // what to do about it, "" when the message says enough
	cause  error
}

func (h httpError) Error() string {
	if h.hint != "" {
		return h.msg + " — " + h.hint
	}
	return h.msg
}
func (h httpError) Unwrap() error { return h.cause }

// transportError words network failures for a human: "cannot reach http://host: connection
// refused" rather than the dial error's internals.
type transportError struct{ err error }

func (t transportError) Unwrap() error { return t.err }

func (t transportError) Error() string {
	var ue *url.Error
	target := ""
	if errors.As(t.err, &ue) {
		if u, err := url.Parse(ue.URL); err == nil {
			target = u.Scheme + "://" + u.Host
		}
	}
	var reason string
	var dns *net.DNSError
	switch {
	case errors.As(t.err, &dns) && dns.IsNotFound:
		reason = "no such host " + dns.Name
	case errors.Is(t.err, syscall.ECONNREFUSED):
		reason = "connection refused"
	case errors.Is(t.err, syscall.ECONNRESET):
		reason = "connection reset"
	case errors.Is(t.err, io.ErrUnexpectedEOF) || errors.Is(t.err, io.EOF):
		reason = "the stream ended before the reply was complete"
	case errors.Is(t.err, context.DeadlineExceeded) || isTimeout(t.err):
		reason = "timed out"
	default:
		if target == "" {
			return t.err.Error()
		}
		reason = ue.Err.Error()
	}
	if target == "" {
		return reason
	}
	return fmt.Sprintf("cannot reach %s: %s", target, reason)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// saysTooLong recognises the providers' ways of saying the prompt exceeds the context window.
func saysTooLong(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{"context_length_exceeded", "maximum context length", "context length",
		"prompt is too long", "too many tokens", "context window", "input is too long", "exceeds the maximum"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// retryAfter reads retry-after-ms, then retry-after as seconds or an HTTP date; 0 when absent.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// providerMessage pulls the human message out of an error body of any shape providers use
// (see openai.ErrorMessage), else returns the body as is.
func providerMessage(body string) string {
	return openai.ErrorMessage(body)
}

// clipMessage keeps an error body readable on one screen: providers sometimes answer with an
// HTML page.
func clipMessage(s string) string {
	return textfmt.Clip(strings.Join(strings.Fields(s), " "), 400)
}
