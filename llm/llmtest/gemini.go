package llmtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
)

// GeminiServer speaks the Gemini API's streamGenerateContent (SSE).
type GeminiServer struct {
	recorder
	srv     *httptest.Server
	respond Responder
}

// NewGemini starts a Gemini API server on 127.0.0.1.
func NewGemini(respond Responder) *GeminiServer {
	s := &GeminiServer{respond: respond}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /{version}/models/{call}", s.serve)
	s.srv = httptest.NewServer(mux)
	return s
}

// URL is the base URL to give the SDK (it appends /v1beta/models/…).
func (s *GeminiServer) URL() string { return s.srv.URL }

// Close stops the server.
func (s *GeminiServer) Close() { s.srv.Close() }

func (s *GeminiServer) serve(w http.ResponseWriter, r *http.Request) {
	model, method, _ := strings.Cut(r.PathValue("call"), ":")
	if method != "streamGenerateContent" {
		writeGeminiError(w, http.StatusNotFound, "only streamGenerateContent is served here")
		return
	}
	reply, _, size, ok := s.accept(w, r, s.respond, func(w http.ResponseWriter, status int, reply Reply) {
		writeGeminiError(w, status, reply.Text)
	})
	if !ok {
		return
	}
	sse := newSSE(w)
	for i, c := range geminiChunks(reply, model, size) {
		if reply.DropAfter > 0 && i >= reply.DropAfter {
			return
		}
		sse.data(c)
	}
}

// geminiChunks streams thoughts and text in pieces, then the function calls (Gemini sends each
// call whole), the last chunk carrying the finish reason and usage.
func geminiChunks(reply Reply, model string, requestBytes int) []map[string]any {
	chunk := func(parts []any) map[string]any {
		return map[string]any{"candidates": []any{map[string]any{"index": 0,
			"content": map[string]any{"role": "model", "parts": parts}}}, "modelVersion": model}
	}
	var out []map[string]any
	for _, p := range pieces(reply.Reasoning, 16) {
		out = append(out, chunk([]any{map[string]any{"text": p, "thought": true}}))
	}
	for _, p := range pieces(reply.Text, 16) {
		out = append(out, chunk([]any{map[string]any{"text": p}}))
	}
	var calls []any
	for i, c := range reply.Calls {
		var args map[string]any
		if json.Unmarshal([]byte(c.Args), &args) != nil {
			args = map[string]any{}
		}
		part := map[string]any{"functionCall": map[string]any{"name": c.Name, "args": args}}
		if i == 0 {
			part["thoughtSignature"] = "c2lnLXRlc3Q=" // base64 "sig-test"
		}
		calls = append(calls, part)
	}
	if calls == nil {
		calls = []any{}
	}
	last := chunk(calls)
	finish := reply.Stop
	if finish == "" {
		finish = "STOP"
	}
	last["candidates"].([]any)[0].(map[string]any)["finishReason"] = finish
	usage := openAIUsage(reply, requestBytes)
	last["usageMetadata"] = map[string]any{"promptTokenCount": usage["prompt_tokens"],
		"candidatesTokenCount": usage["completion_tokens"], "totalTokenCount": usage["total_tokens"]}
	return append(out, last)
}

// writeGeminiError answers in Google's error shape.
func writeGeminiError(w http.ResponseWriter, status int, msg string) {
	if msg == "" {
		msg = defaultErrorMessage(status)
	}
	st := "INVALID_ARGUMENT"
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		st = "PERMISSION_DENIED"
	case status == http.StatusTooManyRequests:
		st = "RESOURCE_EXHAUSTED"
	case status >= 500:
		st = "UNAVAILABLE"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": st}})
}
