package openai

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// decodeBody runs the stream decoder and the accumulator over one answer body, as the
// provider does, and returns the result or the error that ended it.
func decodeBody(body []byte, contentType string, limit int) (*Result, error) {
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {contentType}},
		Body: io.NopCloser(bytes.NewReader(body))}
	s := newStream(resp, limit)
	defer s.Close()
	acc := Accumulator{Limit: limit}
	for range len(body) + 2 { // every turn of the loop consumes input or ends it
		c, err := s.Next()
		if err == io.EOF {
			return acc.Finish(s.Done())
		}
		if err != nil {
			return nil, err
		}
		if err := acc.Add(c); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("the decoder did not end")
}

// FuzzStreamDecoder: whatever a server sends, the decoder ends (no loop, no panic), with
// either a reply whose calls all have ids or one of the errors callers classify.
func FuzzStreamDecoder(f *testing.F) {
	fixtures, _ := filepath.Glob(filepath.Join("..", "testdata", "wire", "*"))
	for _, p := range fixtures {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if _, body, ok := bytes.Cut(raw, []byte("\n---\n")); ok {
			f.Add(body, bytes.HasSuffix([]byte(p), []byte(".json")))
		}
	}
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1},{\"index\":-1,\"function\":{\"arguments\":{}}}]}}]}\r\r"), false)
	f.Add([]byte("data:\ndata:\n\n:\r\nevent: error\ndata: 1\n\n"), false)
	f.Add([]byte{0xff, '\n', '\n'}, true)
	f.Fuzz(func(t *testing.T, body []byte, whole bool) {
		ct := "text/event-stream"
		if whole {
			ct = "application/json"
		}
		r, err := decodeBody(body, ct, 4096)
		if err != nil {
			var se *StreamError
			known := errors.As(err, &se) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrReplyTooLarge) ||
				errors.Is(err, ErrMalformed) || errors.Is(err, ErrEmptyBody) || errors.Is(err, io.ErrUnexpectedEOF)
			if !known {
				t.Fatalf("unclassified error %T: %v", err, err)
			}
			return
		}
		for _, c := range r.Calls {
			if c.ID == "" {
				t.Fatalf("a call without an id: %+v", c)
			}
		}
		if len(r.Calls) > 0 && r.Finish != "tool_calls" && r.Finish != "length" && r.Finish != "content_filter" {
			t.Fatalf("calls with finish %q", r.Finish)
		}
	})
}
