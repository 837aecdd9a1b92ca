// Package llmtest serves the real provider wire protocols (OpenAI Chat Completions SSE,
// Anthropic Messages SSE, Gemini generateContent SSE) from httptest servers on 127.0.0.1, so tests
// exercise the provider adapters end to end. A Responder decides each reply; every request is
// recorded for assertions (pairing, sizes, golden transcripts).
package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"
)

// Call is a tool call the fake model makes. Args is sent verbatim, so it may be malformed.
type Call struct {
	ID   string // generated when empty
	Name string
	Args string
}

// Reply is what the fake server answers to one request.
type Reply struct {
	Text      string
	Reasoning string
	Calls     []Call
	// Status, when not 0 or 200, answers with that HTTP error instead of a stream; Text, when
	// set, is then the error message.
	Status int
	// RetryAfter is sent as the Retry-After header with an error Status.
	RetryAfter string
	// DropAfter, when > 0, closes the stream after that many SSE events (a dropped stream).
	DropAfter int
	// StallAfter, when > 0, sends that many SSE events (the first is the role chunk) and then
	// nothing more, holding the stream open until the client gives up (a stalled stream).
	// OpenAI protocol only.
	StallAfter int
	// Delay is slept before answering.
	Delay time.Duration
	// Stop overrides the protocol's stop/finish reason (e.g. "length"). With an error Status it
	// is the error code instead (e.g. "context_length_exceeded").
	Stop string
	// InputTokens and OutputTokens are reported as usage; defaults are derived from sizes.
	InputTokens, OutputTokens int
}

// Responder decides the reply to the n-th request (0-based); body is the decoded JSON body.
type Responder func(n int, body map[string]any) Reply

// Recorded is one request the server received.
type Recorded struct {
	Path   string
	Header http.Header
	Body   []byte
}

// recorder is the part every protocol server shares: it counts and records requests.
type recorder struct {
	mu       sync.Mutex
	requests []Recorded
}

func (r *recorder) record(req *http.Request, body []byte) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, Recorded{Path: req.URL.Path, Header: req.Header.Clone(), Body: body})
	return len(r.requests) - 1
}

// Requests returns a copy of what the server received so far, in arrival order.
func (r *recorder) Requests() []Recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Recorded(nil), r.requests...)
}

// errorWriter answers a request with a protocol's error shape.
type errorWriter func(w http.ResponseWriter, status int, reply Reply)

// accept is what every protocol server does first: read and record the request, decode its
// JSON, ask the Responder, play the reply's delay, and answer its error status. ok is false when
// the request is already answered.
func (r *recorder) accept(w http.ResponseWriter, req *http.Request, respond Responder, fail errorWriter) (reply Reply, body map[string]any, size int, ok bool) {
	raw, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return Reply{}, nil, 0, false
	}
	n := r.record(req, raw)
	if err := json.Unmarshal(raw, &body); err != nil {
		fail(w, http.StatusBadRequest, Reply{Text: "invalid JSON body: " + err.Error()})
		return Reply{}, nil, 0, false
	}
	if msg := checkImages(req.URL.Path, body); msg != "" {
		fail(w, http.StatusBadRequest, Reply{Text: msg})
		return Reply{}, nil, 0, false
	}
	reply = respond(n, body)
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-req.Context().Done():
			return Reply{}, nil, 0, false
		}
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		if reply.RetryAfter != "" {
			w.Header().Set("Retry-After", reply.RetryAfter)
		}
		fail(w, reply.Status, reply)
		return Reply{}, nil, 0, false
	}
	return reply, body, len(raw), true
}
