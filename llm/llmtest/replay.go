package llmtest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
)

// Fixture is one recorded answer of an OpenAI-compatible server: its status, content type and
// body byte for byte (CRLF line ends, odd spacing and all). Server names where it was seen.
//
// On disk (llm/testdata/wire) a fixture is a few "key: value" lines (server, status,
// content-type, note), a line "---", then the body exactly as sent.
type Fixture struct {
	Name        string
	Server      string
	Status      int
	ContentType string
	Body        []byte
	// Write, when set, answers instead of Body: for answers too large or endless to record
	// (a 100 MB line, reasoning that never stops). flush pushes what was written so far.
	Write func(w io.Writer, flush func())
}

// LoadFixture reads a recorded answer.
func LoadFixture(path string) (Fixture, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Fixture{}, err
	}
	head, body, ok := bytes.Cut(raw, []byte("\n---\n"))
	if !ok {
		return Fixture{}, fmt.Errorf("fixture %s: no --- line between the header and the body", path)
	}
	f := Fixture{Name: path, Status: http.StatusOK, Body: body}
	for _, line := range strings.Split(string(head), "\n") {
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "server":
			f.Server = v
		case "status":
			if f.Status, err = strconv.Atoi(v); err != nil {
				return Fixture{}, fmt.Errorf("fixture %s: status %q: %w", path, v, err)
			}
		case "content-type":
			f.ContentType = v
		}
	}
	return f, nil
}

// ReplayServer answers POST /v1/chat/completions with fixtures on 127.0.0.1: the n-th request
// gets the n-th fixture, and every request after the last gets the last one.
type ReplayServer struct {
	recorder
	srv      *httptest.Server
	fixtures []Fixture
}

// NewReplay starts a server replaying fixtures in order.
func NewReplay(fixtures ...Fixture) *ReplayServer {
	s := &ReplayServer{fixtures: fixtures}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.serve)
	s.srv = httptest.NewServer(mux)
	return s
}

// URL is the base URL to give the client (ends in /v1).
func (s *ReplayServer) URL() string { return s.srv.URL + "/v1" }

// Close stops the server; it waits for answers still being written.
func (s *ReplayServer) Close() { s.srv.CloseClientConnections(); s.srv.Close() }

func (s *ReplayServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	n := s.record(r, raw)
	f := s.fixtures[min(n, len(s.fixtures)-1)]
	if f.ContentType != "" {
		w.Header().Set("Content-Type", f.ContentType)
	}
	status := f.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	fl, _ := w.(http.Flusher)
	flush := func() {
		if fl != nil {
			fl.Flush()
		}
	}
	if f.Write != nil {
		f.Write(&stopOnGone{w: w, done: r.Context().Done()}, flush)
		return
	}
	_, _ = w.Write(f.Body)
	flush()
}

// stopOnGone fails writes once the client has gone, so an endless answer ends with it.
type stopOnGone struct {
	w    io.Writer
	done <-chan struct{}
}

func (s *stopOnGone) Write(p []byte) (int, error) {
	select {
	case <-s.done:
		return 0, io.ErrClosedPipe
	default:
	}
	return s.w.Write(p)
}
