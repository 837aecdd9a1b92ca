package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// sseWriter writes Server-Sent Events and flushes each one, as real providers do.
type sseWriter struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sseWriter {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sseWriter{w: w, f: f}
}

// data writes one "data:" event holding v as JSON.
func (s *sseWriter) data(v any) {
	b, _ := json.Marshal(v)
	s.raw(string(b))
}

// event writes a named event (Anthropic's "event: name" then "data:").
func (s *sseWriter) event(name string, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, b)
	s.flush()
}

func (s *sseWriter) raw(data string) {
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	s.flush()
}

func (s *sseWriter) flush() {
	if s.f != nil {
		s.f.Flush()
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// pieces cuts s into chunks of at most n bytes, never inside a UTF-8 sequence, the way
// streamed deltas arrive.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		cut := min(n, len(s))
		for cut < len(s) && cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		if cut == 0 {
			cut = min(n, len(s))
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

// defaultErrorMessage is what a provider typically says for an error status.
func defaultErrorMessage(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "Incorrect API key provided"
	case http.StatusForbidden:
		return "permission denied"
	case http.StatusNotFound:
		return "model not found"
	case http.StatusTooManyRequests:
		return "rate limit reached; please retry later"
	}
	if status >= 500 {
		return "the server had an error while processing your request"
	}
	return http.StatusText(status)
}
