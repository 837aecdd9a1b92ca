package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// OpenAIServer speaks the OpenAI Chat Completions protocol, streaming (SSE) and not.
type OpenAIServer struct {
	recorder
	srv     *httptest.Server
	respond Responder
	mu      sync.Mutex
	callSeq int // tool call ids are call_0, call_1, … across the server's life
}

// NewOpenAI starts a Chat Completions server on 127.0.0.1.
func NewOpenAI(respond Responder) *OpenAIServer {
	s := &OpenAIServer{respond: respond}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.serve)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		// The model list an OpenAI-compatible server gives (troupe doctor probes it).
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"fake","object":"model","created":0,"owned_by":"llmtest"}]}`)
	})
	s.srv = httptest.NewServer(mux)
	return s
}

// URL is the base URL to give the SDK (ends in /v1).
func (s *OpenAIServer) URL() string { return s.srv.URL + "/v1" }

// Close stops the server.
func (s *OpenAIServer) Close() { s.srv.Close() }

func (s *OpenAIServer) serve(w http.ResponseWriter, r *http.Request) {
	reply, body, size, ok := s.accept(w, r, s.respond, func(w http.ResponseWriter, status int, reply Reply) {
		writeOpenAIError(w, status, reply.Stop, reply.Text)
	})
	if !ok {
		return
	}
	model, _ := body["model"].(string)
	ids := s.callIDs(reply.Calls)
	usage := openAIUsage(reply, size)
	if stream, _ := body["stream"].(bool); !stream {
		writeJSON(w, openAICompletion(reply, model, ids, usage))
		return
	}
	sse := newSSE(w)
	chunks := openAIChunks(reply, model, ids)
	if opts, _ := body["stream_options"].(map[string]any); opts["include_usage"] == true {
		chunks = append(chunks, map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk",
			"model": model, "choices": []any{}, "usage": usage})
	}
	for i, c := range chunks {
		if reply.DropAfter > 0 && i >= reply.DropAfter {
			return
		}
		if reply.StallAfter > 0 && i >= reply.StallAfter {
			<-r.Context().Done()
			return
		}
		sse.data(c)
	}
	sse.raw("[DONE]")
}

// callIDs gives each call its id, generating call_<n> for those without one.
func (s *OpenAIServer) callIDs(calls []Call) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, len(calls))
	for i, c := range calls {
		ids[i] = c.ID
		if ids[i] == "" {
			ids[i] = fmt.Sprintf("call_%d", s.callSeq)
			s.callSeq++
		}
	}
	return ids
}

func openAIFinish(reply Reply) string {
	switch {
	case reply.Stop != "":
		return reply.Stop
	case len(reply.Calls) > 0:
		return "tool_calls"
	}
	return "stop"
}

func openAIUsage(reply Reply, requestBytes int) map[string]any {
	in, out := reply.InputTokens, reply.OutputTokens
	if in == 0 {
		in = requestBytes/4 + 1
	}
	if out == 0 {
		out = (len(reply.Text)+len(reply.Reasoning))/4 + 1
		for _, c := range reply.Calls {
			out += (len(c.Name)+len(c.Args))/4 + 1
		}
	}
	return map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out,
		"prompt_tokens_details": map[string]any{"cached_tokens": 0}}
}

// openAIChunks splits a reply into the chunks a real server streams: the role, reasoning and
// content in small pieces, each tool call's name then its arguments in pieces, the finish reason.
func openAIChunks(reply Reply, model string, ids []string) []map[string]any {
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000,
			"model": model, "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	out := []map[string]any{chunk(map[string]any{"role": "assistant", "content": ""}, nil)}
	for _, p := range pieces(reply.Reasoning, 16) {
		out = append(out, chunk(map[string]any{"reasoning_content": p}, nil))
	}
	for _, p := range pieces(reply.Text, 16) {
		out = append(out, chunk(map[string]any{"content": p}, nil))
	}
	for i, c := range reply.Calls {
		out = append(out, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": ids[i],
			"type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil))
		for _, p := range pieces(c.Args, 7) {
			out = append(out, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": p}}}}, nil))
		}
	}
	return append(out, chunk(map[string]any{}, openAIFinish(reply)))
}

func openAICompletion(reply Reply, model string, ids []string, usage map[string]any) map[string]any {
	msg := map[string]any{"role": "assistant", "content": reply.Text}
	if reply.Reasoning != "" {
		msg["reasoning_content"] = reply.Reasoning
	}
	var calls []any
	for i, c := range reply.Calls {
		calls = append(calls, map[string]any{"id": ids[i], "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Args}})
	}
	if calls != nil {
		msg["tool_calls"] = calls
	}
	return map[string]any{"id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": openAIFinish(reply)}},
		"usage":   usage}
}

// writeOpenAIError answers in OpenAI's error shape; code, when set, goes in error.code.
func writeOpenAIError(w http.ResponseWriter, status int, code, msg string) {
	if msg == "" {
		msg = defaultErrorMessage(status)
	}
	typ := "invalid_request_error"
	switch {
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status >= 500:
		typ = "server_error"
	case status == http.StatusUnauthorized:
		typ = "authentication_error"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var c any
	if code != "" {
		c = code
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": c}})
}
