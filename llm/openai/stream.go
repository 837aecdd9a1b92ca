package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// ErrEmptyBody is a 200 answer with nothing in it (no event, or an empty JSON body).
var ErrEmptyBody = errors.New("the server answered 200 with an empty body")

// ErrMalformed wraps a stream event that is not a JSON chunk.
var ErrMalformed = errors.New("the stream sent an event that is not a JSON chunk")

// StreamError is an error the server sent inside a 200 stream: an event named "error" or a
// chunk holding an "error" object (OpenRouter, vLLM, LiteLLM do this when the model fails
// after the headers went out).
type StreamError struct {
	Message string // the server's words
	Code    string // error.code or error.type as text, "" when absent
	Status  int    // a numeric code that is an HTTP status (OpenRouter's "code": 502), else 0
	Body    string
}

func (e *StreamError) Error() string { return "the stream sent an error: " + e.Message }

// Stream decodes one streamed reply. Next returns each chunk; the chunk is valid until the
// next call.
type Stream struct {
	resp   *http.Response
	sse    *SSEReader
	limit  int
	whole  bool // the server answered with one JSON document instead of a stream
	events int
	done   bool // [DONE] was seen
	chunk  Chunk
	quirks Quirks
}

func newStream(resp *http.Response, limit int) *Stream {
	s := &Stream{resp: resp, limit: limit, whole: isJSON(resp.Header)}
	if !s.whole {
		s.sse = NewSSEReader(resp.Body, limit)
	}
	return s
}

// Close releases the connection.
func (s *Stream) Close() error { return s.resp.Body.Close() }

// Done says the stream ended with its [DONE] marker.
func (s *Stream) Done() bool { return s.done }

// Quirks are the leniencies the stream needed so far.
func (s *Stream) Quirks() Quirks { return s.quirks }

// Next returns the next chunk, io.EOF at the end of the stream (with or without [DONE]), or
// an error: *StreamError, ErrTooLarge, ErrMalformed, ErrEmptyBody, io.ErrUnexpectedEOF or the
// transport's.
func (s *Stream) Next() (*Chunk, error) {
	if s.whole {
		return s.nextWhole()
	}
	for {
		if s.done {
			return nil, io.EOF
		}
		ev, err := s.sse.Next()
		if err == io.EOF {
			if s.events == 0 {
				return nil, ErrEmptyBody
			}
			s.quirks.Add(QuirkMissingDone)
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		s.events++
		data := bytes.TrimSpace(ev.Data)
		switch {
		case bytes.Equal(data, []byte("[DONE]")):
			s.done = true
			return nil, io.EOF
		case len(data) == 0:
			continue
		case ev.Type == "error":
			return nil, streamError(data)
		}
		if err := s.decode(data); err != nil {
			if ev.Type != "" && ev.Type != "message" {
				continue // a named event of some proxy's own (ping, keep-alive)
			}
			return nil, err
		}
		if len(s.chunk.Error) > 0 && !bytes.Equal(s.chunk.Error, []byte("null")) {
			return nil, streamError(data)
		}
		return &s.chunk, nil
	}
}

// nextWhole reads a non-streamed completion as a single chunk.
func (s *Stream) nextWhole() (*Chunk, error) {
	if s.done {
		return nil, io.EOF
	}
	s.done = true
	b, err := io.ReadAll(io.LimitReader(s.resp.Body, int64(s.limit)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > s.limit {
		return nil, fmt.Errorf("%w (a body over %d bytes)", ErrTooLarge, s.limit)
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, ErrEmptyBody
	}
	if err := s.decode(b); err != nil {
		return nil, err
	}
	if len(s.chunk.Error) > 0 && !bytes.Equal(s.chunk.Error, []byte("null")) {
		return nil, streamError(b)
	}
	s.quirks.Add(QuirkUnstreamed)
	for i := range s.chunk.Choices {
		if m := s.chunk.Choices[i].Message; m != nil {
			s.chunk.Choices[i].Delta = *m
		}
	}
	return &s.chunk, nil
}

// decode reads data into s.chunk. A field of an unexpected type (a string index, a numeric
// finish reason) is skipped rather than failing the chunk: encoding/json fills the rest.
func (s *Stream) decode(data []byte) error {
	s.chunk = Chunk{}
	err := json.Unmarshal(data, &s.chunk)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
	case errors.As(err, &typeErr):
		s.quirks.Add(QuirkOddFieldType)
	default:
		return fmt.Errorf("%w: %v: %s", ErrMalformed, err, textfmt.Clip(string(data), 120))
	}
	if !utf8.Valid(data) {
		s.quirks.Add(QuirkInvalidUTF8)
	}
	return nil
}

// streamError reads an error event: {"error":{"message","code","type"}}, {"error":"text"} or
// {"message":…}.
func streamError(data []byte) *StreamError {
	e := &StreamError{Message: ErrorMessage(string(data)), Body: textfmt.Clip(string(data), 2000)}
	var v struct {
		Error struct {
			Code json.RawMessage `json:"code"`
			Type string          `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &v) == nil {
		var n int
		var code string
		switch {
		case json.Unmarshal(v.Error.Code, &n) == nil && n > 0:
			if n >= 400 && n < 600 {
				e.Status = n
			}
			e.Code = fmt.Sprint(n)
		case json.Unmarshal(v.Error.Code, &code) == nil && code != "":
			e.Code = code
		default:
			e.Code = v.Error.Type
		}
	}
	return e
}
