package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/troupe-dev/troupe/llm/openai"
)

// OpenAIConfig configures an OpenAI-compatible Chat Completions provider: OpenAI itself,
// OpenRouter, DeepSeek, Qwen, Ollama, vLLM, llama.cpp.
type OpenAIConfig struct {
	Name       string // the provider's name in errors: "openai", "openrouter", "ollama", …
	BaseURL    string
	APIKey     string
	HTTPClient *http.Client
	// Headers are sent with every request (OpenAI's organization and project headers).
	Headers map[string]string
}

// defaultOpenAIBase is where an OpenAIConfig without BaseURL points.
const defaultOpenAIBase = "https://api.openai.com/v1"

type openAIProvider struct {
	name   string
	client *openai.Client
}

// NewOpenAI returns a Provider speaking Chat Completions with streaming through troupe's own
// wire package (llm/openai). It never retries: StreamWithRetry owns retrying.
func NewOpenAI(cfg OpenAIConfig) Provider {
	if cfg.Name == "" {
		cfg.Name = "openai"
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = defaultOpenAIBase
	}
	return &openAIProvider{name: cfg.Name, client: &openai.Client{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey,
		Headers: cfg.Headers, HTTP: watchedClient(cfg.HTTPClient)}} // see streamWatched
}

func (p *openAIProvider) Stream(ctx context.Context, req *Request, emit func(Event)) (*Reply, error) {
	stream, err := p.client.Stream(ctx, p.request(req))
	if err != nil {
		return nil, p.classify(err)
	}
	defer stream.Close()
	acc := openai.Accumulator{
		OnText:      func(s string) { emit(Event{Kind: EventText, Text: s}) },
		OnReasoning: func(s string) { emit(Event{Kind: EventReasoning, Text: s}) },
	}
	for {
		chunk, err := stream.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, p.classify(err)
		}
		if err := acc.Add(chunk); err != nil {
			return nil, p.classify(err)
		}
	}
	res, err := acc.Finish(stream.Done())
	if err != nil {
		return nil, p.classify(err)
	}
	res.Quirks.Merge(stream.Quirks())
	reply := openAIReply(res, req.Model)
	for i := range reply.ToolCalls {
		emit(Event{Kind: EventToolCall, Call: &reply.ToolCalls[i]})
	}
	if res.Usage != nil {
		u := reply.Usage
		emit(Event{Kind: EventUsage, Usage: &u})
	}
	return reply, nil
}

// request maps a Request to a Chat Completions request.
func (p *openAIProvider) request(req *Request) *openai.Request {
	out := &openai.Request{Model: req.Model, StreamOptions: &openai.StreamOptions{IncludeUsage: true}}
	if req.System != "" {
		out.Messages = append(out.Messages, openai.Message{Role: "system", Content: openai.Text(req.System)})
	}
	for _, m := range req.Messages {
		out.Messages = append(out.Messages, openAIMessage(m, req.Model))
	}
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil || schema == nil {
			schema = map[string]any{"type": "object"}
		}
		out.Tools = append(out.Tools, openai.Tool{Type: "function",
			Function: openai.Function{Name: t.Name, Description: t.Description, Parameters: schema}})
	}
	out.MaxTokens = req.MaxTokens
	if req.CacheKey != "" && p.name == "openai" {
		// Only OpenAI documents prompt_cache_key; strict local servers reject unknown fields.
		out.PromptCacheKey = req.CacheKey
	}
	return out
}

func openAIMessage(m Message, model string) openai.Message {
	switch m.Role {
	case RoleTool:
		return openai.Message{Role: "tool", Content: openai.Text(m.Content), ToolCallID: m.ToolCallID}
	case RoleAssistant:
		a := openai.Message{Role: "assistant"}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			a.Content = openai.Text(m.Content)
		}
		for _, c := range m.ToolCalls {
			args := c.Args
			if !json.Valid([]byte(args)) {
				// Ollama and vLLM parse echoed arguments and reject the whole request when they
				// are not JSON; the tool result already told the model what was wrong with them.
				args = "{}"
			}
			a.ToolCalls = append(a.ToolCalls, openai.ToolCall{ID: c.ID, Type: "function",
				Function: openai.FunctionCall{Name: c.Name, Arguments: args}})
		}
		if m.Reasoning != "" && m.Model == model {
			// DeepSeek, Qwen and OpenRouter read reasoning back from reasoning_content.
			a.ReasoningContent = m.Reasoning
		}
		return a
	default:
		return openai.Message{Role: "user", Content: openai.Text(m.Content)}
	}
}

// openAIReply maps an assembled result to a Reply.
func openAIReply(res *openai.Result, model string) *Reply {
	r := &Reply{Text: res.Text, Reasoning: res.Reasoning, Model: res.Model}
	if r.Model == "" {
		r.Model = model
	}
	for _, c := range res.Calls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Args: c.Args})
	}
	if u := res.Usage; u != nil {
		r.Usage = Usage{InputTokens: *u.PromptTokens, OutputTokens: u.CompletionTokens}
		if u.PromptTokensDetails != nil {
			r.Usage.CacheReadTokens = u.PromptTokensDetails.CachedTokens
		}
		if r.Usage.CacheReadTokens == 0 {
			r.Usage.CacheReadTokens = u.PromptCacheHitTokens // DeepSeek's own field
		}
	}
	switch res.Finish {
	case "tool_calls", "function_call":
		r.Stop = StopToolCalls
	case "length":
		r.Stop = StopLength
	case "content_filter":
		r.Stop = StopRefusal
	default:
		r.Stop = StopEnd
	}
	for _, q := range res.Quirks {
		r.Quirks = append(r.Quirks, string(q))
	}
	return r
}

// classify turns a wire failure into a classed *Error with the server's own words.
func (p *openAIProvider) classify(err error) *Error {
	var apiErr *openai.APIError
	var streamErr *openai.StreamError
	switch {
	case errors.As(err, &apiErr):
		return ClassifyHTTP(p.name, apiErr.Status, apiErr.Header, apiErr.Body, nil)
	case errors.As(err, &streamErr):
		return classifyStreamError(p.name, streamErr)
	case openai.IsTooLarge(err):
		// A server that sends this is broken, and sending the same request again gets the
		// same answer.
		return &Error{Class: Fatal, Provider: p.name, Err: err}
	case errors.Is(err, openai.ErrEmptyBody), errors.Is(err, openai.ErrMalformed):
		return &Error{Class: Retryable, Provider: p.name, Err: err}
	}
	return ClassifyErr(p.name, err)
}

// classifyStreamError classes an error sent inside a stream by its code: an HTTP status
// (OpenRouter), or words such as rate_limit, overloaded, server_error, timeout.
func classifyStreamError(provider string, se *openai.StreamError) *Error {
	msg := clipMessage(se.Message)
	if se.Status != 0 {
		e := ClassifyHTTP(provider, se.Status, nil, se.Body, nil)
		e.Status = 0 // the answer was a 200: the code is the server's, said mid-stream
		e.Err = fmt.Errorf("the stream sent an error (code %d): %s", se.Status, msg)
		return e
	}
	e := &Error{Class: Fatal, Provider: provider, Err: errors.New("the stream sent an error: " + msg)}
	code := strings.ToLower(se.Code + " " + se.Message)
	switch {
	case saysTooLong(code):
		e.Class = Overflow
	case containsAny(code, "rate_limit", "rate limit", "overloaded", "server_error", "internal", "timeout",
		"unavailable", "capacity", "try again"):
		e.Class = Retryable
	}
	if se.Code != "" {
		if _, err := strconv.Atoi(se.Code); err != nil {
			e.Err = fmt.Errorf("the stream sent an error (%s): %s", se.Code, msg)
		}
	}
	return e
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
