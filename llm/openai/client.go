package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// Client calls one OpenAI-compatible endpoint. It never retries: the caller owns retrying.
type Client struct {
	BaseURL string // ends before /chat/completions, e.g. https://api.openai.com/v1
	APIKey  string
	HTTP    *http.Client
	Headers map[string]string // sent with every request
	// Limit bounds one SSE line or event and one error body, in bytes (0: DefaultLimit).
	Limit int
}

// DefaultLimit is the largest line, event or error body read: a streamed delta is a few bytes,
// and even a whole non-streamed reply with a large file in a call fits well within it.
const DefaultLimit = 8 << 20

// errorBodyLimit bounds how much of an error response is read: enough for any JSON error or
// the head of an HTML page.
const errorBodyLimit = 64 << 10

// APIError is an HTTP answer other than 200, with the server's own body.
type APIError struct {
	Status int
	Header http.Header
	Body   string // at most 64 KiB of it
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, http.StatusText(e.Status), ErrorMessage(e.Body))
}

// Stream posts req (with stream set) to /chat/completions and returns the open stream, or an
// *APIError for a non-200 answer, or the transport's error.
func (c *Client) Stream(ctx context.Context, req *Request) (*Stream, error) {
	req.Stream = true
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode the request: %w", err)
	}
	resp, err := c.do(ctx, http.MethodPost, "/chat/completions", body)
	if err != nil {
		return nil, err
	}
	if isHTML(resp.Header) {
		// A web page with 200: a proxy's login page, or a base URL that points at a server's
		// web interface rather than its API.
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
		return nil, fmt.Errorf("%w (%q): is the base URL the API's address (often ending in /v1)?",
			ErrHTMLPage, ErrorMessage(string(b)))
	}
	return newStream(resp, c.limit()), nil
}

// Models lists the ids GET /models answers with.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	resp, err := c.do(ctx, http.MethodGet, "/models", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if isHTML(resp.Header) {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
		return nil, fmt.Errorf("%w (%q): is the base URL the API's address (often ending in /v1)?",
			ErrHTMLPage, ErrorMessage(string(b)))
	}
	var list modelList
	if err := json.NewDecoder(io.LimitReader(resp.Body, int64(c.limit()))).Decode(&list); err != nil {
		return nil, fmt.Errorf("read the model list: %w", err)
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// do sends one request; a non-200 answer is read (bounded) into an *APIError.
func (c *Client) do(ctx context.Context, method, path string, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	hreq, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, rd)
	if err != nil {
		return nil, fmt.Errorf("build the request: %w", err)
	}
	if body != nil {
		hreq.Header.Set("Content-Type", "application/json")
		hreq.Header.Set("Accept", "text/event-stream, application/json")
	}
	for k, v := range c.Headers {
		hreq.Header.Set(k, v)
	}
	if c.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(hreq)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		b, rerr := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
		if rerr != nil && len(b) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &APIError{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
	}
	return resp, nil
}

func (c *Client) limit() int {
	if c.Limit > 0 {
		return c.Limit
	}
	return DefaultLimit
}

// isJSON says the response is a whole JSON document rather than an event stream.
func isJSON(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// ErrHTMLPage is a 200 answer that is a web page rather than a stream.
var ErrHTMLPage = errors.New("the server answered 200 with a web page, not a stream")

func isHTML(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && mt == "text/html"
}

// errStreamEnded is what a stream that ends without a finish reason reports, wrapped around
// io.ErrUnexpectedEOF so callers class it as a dropped stream.
var errStreamEnded = fmt.Errorf("the stream ended before the reply was complete: %w", io.ErrUnexpectedEOF)

// IsTooLarge says err is a stream that passed a size limit.
func IsTooLarge(err error) bool {
	return errors.Is(err, ErrTooLarge) || errors.Is(err, ErrReplyTooLarge)
}
