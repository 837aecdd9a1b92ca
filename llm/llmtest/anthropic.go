package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
)

// AnthropicServer speaks the Anthropic Messages protocol with streaming (SSE).
type AnthropicServer struct {
	recorder
	srv     *httptest.Server
	respond Responder
	mu      sync.Mutex
	callSeq int // tool_use ids are toolu_0, toolu_1, … across the server's life
}

// NewAnthropic starts a Messages server on 127.0.0.1.
func NewAnthropic(respond Responder) *AnthropicServer {
	s := &AnthropicServer{respond: respond}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.serve)
	s.srv = httptest.NewServer(mux)
	return s
}

// URL is the base URL to give the SDK (it appends /v1/messages).
func (s *AnthropicServer) URL() string { return s.srv.URL }

// Close stops the server.
func (s *AnthropicServer) Close() { s.srv.Close() }

func (s *AnthropicServer) serve(w http.ResponseWriter, r *http.Request) {
	reply, body, size, ok := s.accept(w, r, s.respond, func(w http.ResponseWriter, status int, reply Reply) {
		writeAnthropicError(w, status, reply.Text)
	})
	if !ok {
		return
	}
	model, _ := body["model"].(string)
	events := s.events(reply, model, size)
	sse := newSSE(w)
	for i, e := range events {
		if reply.DropAfter > 0 && i >= reply.DropAfter {
			return
		}
		sse.event(e["type"].(string), e)
	}
}

// events is the real sequence: message_start, one block per thinking/text/tool_use (start,
// deltas, stop), message_delta with the stop reason and usage, message_stop.
func (s *AnthropicServer) events(reply Reply, model string, requestBytes int) []map[string]any {
	usage := openAIUsage(reply, requestBytes)
	out := []map[string]any{{"type": "message_start", "message": map[string]any{
		"id": "msg_test", "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": usage["prompt_tokens"], "output_tokens": 1,
			"cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}}}}
	index := 0
	block := func(start map[string]any, deltas []map[string]any) {
		out = append(out, map[string]any{"type": "content_block_start", "index": index, "content_block": start})
		for _, d := range deltas {
			out = append(out, map[string]any{"type": "content_block_delta", "index": index, "delta": d})
		}
		out = append(out, map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	if reply.Reasoning != "" {
		var ds []map[string]any
		for _, p := range pieces(reply.Reasoning, 16) {
			ds = append(ds, map[string]any{"type": "thinking_delta", "thinking": p})
		}
		ds = append(ds, map[string]any{"type": "signature_delta", "signature": "sig-test"})
		block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, ds)
	}
	if reply.Text != "" {
		var ds []map[string]any
		for _, p := range pieces(reply.Text, 16) {
			ds = append(ds, map[string]any{"type": "text_delta", "text": p})
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	for _, c := range reply.Calls {
		id := c.ID
		if id == "" {
			s.mu.Lock()
			id = fmt.Sprintf("toolu_%d", s.callSeq)
			s.callSeq++
			s.mu.Unlock()
		}
		var ds []map[string]any
		for _, p := range pieces(c.Args, 7) {
			ds = append(ds, map[string]any{"type": "input_json_delta", "partial_json": p})
		}
		block(map[string]any{"type": "tool_use", "id": id, "name": c.Name, "input": map[string]any{}}, ds)
	}
	stop := reply.Stop
	if stop == "" {
		stop = "end_turn"
		if len(reply.Calls) > 0 {
			stop = "tool_use"
		}
	}
	return append(out,
		map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": usage["completion_tokens"]}},
		map[string]any{"type": "message_stop"})
}

// writeAnthropicError answers in Anthropic's error shape.
func writeAnthropicError(w http.ResponseWriter, status int, msg string) {
	if msg == "" {
		msg = defaultErrorMessage(status)
	}
	typ := "invalid_request_error"
	switch {
	case status == http.StatusUnauthorized:
		typ = "authentication_error"
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status == 529:
		typ, msg = "overloaded_error", "Overloaded"
	case status >= 500:
		typ = "api_error"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}
