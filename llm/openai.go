package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

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
	// Memory, when set, remembers rejected fields and counts quirks.
	Memory WireMemory
}

// defaultOpenAIBase is where an OpenAIConfig without BaseURL points.
const defaultOpenAIBase = "https://api.openai.com/v1"

type openAIProvider struct {
	name    string
	base    string
	client  *openai.Client
	mistral bool // Mistral's own API: call ids of nine characters
	memory  WireMemory

	mu       sync.Mutex
	rejected map[string][]string // model → optional fields the endpoint refused
}

// WireMemory keeps what the OpenAI-compatible wire learned across runs: the optional fields
// an endpoint rejects for a model, and how often each quirk fired for a model (troupe stats).
// The store implements it; nil keeps nothing past the process.
type WireMemory interface {
	WireRejects(endpoint, model string) ([]string, error)
	AddWireReject(endpoint, model, field string) error
	AddWireQuirks(model string, quirks []string) error
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
	return &openAIProvider{name: cfg.Name, base: cfg.BaseURL, mistral: isMistralHost(cfg.BaseURL), memory: cfg.Memory,
		client: &openai.Client{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Headers: cfg.Headers,
			HTTP: watchedClient(cfg.HTTPClient)}} // see streamWatched
}

// Stream makes one call. An endpoint that rejects an optional field (stream_options,
// parallel_tool_calls) gets the call again at once without it, and is remembered; every
// leniency the call needed is emitted as an EventQuirk and counted.
func (p *openAIProvider) Stream(ctx context.Context, req *Request, emit func(Event)) (*Reply, error) {
	rejected := p.rejectedFor(req.Model)
	var quirks openai.Quirks
	for range 3 { // each optional field is dropped at most once
		wreq := p.request(req, rejected, &quirks)
		reply, err := p.streamOnce(ctx, wreq, req.Model, emit)
		var e *Error
		if errors.As(err, &e) {
			if field := rejectedField(e, wreq); field != "" {
				p.reject(req.Model, field)
				rejected = append(rejected, field)
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		for _, f := range rejected {
			quirks.Add(rejectQuirk(f))
		}
		for _, q := range reply.Quirks {
			quirks.Add(openai.Quirk(q))
		}
		reply.Quirks = reply.Quirks[:0]
		for _, q := range quirks {
			reply.Quirks = append(reply.Quirks, string(q))
			emit(Event{Kind: EventQuirk, Text: string(q)})
		}
		if len(reply.Quirks) > 0 && p.memory != nil {
			_ = p.memory.AddWireQuirks(p.name+"/"+req.Model, reply.Quirks) // counters only: a failed write loses a count
		}
		return reply, nil
	}
	return nil, &Error{Class: Fatal, Provider: p.name, Err: errors.New("the endpoint kept rejecting optional fields")}
}

// streamOnce sends one request and reads its stream.
func (p *openAIProvider) streamOnce(ctx context.Context, wreq *openai.Request, model string, emit func(Event)) (*Reply, error) {
	stream, err := p.client.Stream(ctx, wreq)
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
	reply := openAIReply(res, model)
	for i := range reply.ToolCalls {
		emit(Event{Kind: EventToolCall, Call: &reply.ToolCalls[i]})
	}
	if res.Usage != nil {
		u := reply.Usage
		emit(Event{Kind: EventUsage, Usage: &u})
	}
	return reply, nil
}

// openAIReply maps an assembled result to a Reply.
func openAIReply(res *openai.Result, model string) *Reply {
	r := &Reply{Text: res.Text, Reasoning: res.Reasoning, ReasoningBlocks: res.ReasoningDetails, Model: res.Model}
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
	case openai.IsTooLarge(err), errors.Is(err, openai.ErrHTMLPage):
		// A server that sends this is broken or is not the API, and sending the same request
		// again gets the same answer.
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

// rejectedFor returns the optional fields the endpoint is known to reject for model: from
// this process, else from the memory.
func (p *openAIProvider) rejectedFor(model string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if got, ok := p.rejected[model]; ok {
		return append([]string(nil), got...)
	}
	var fields []string
	if p.memory != nil {
		fields, _ = p.memory.WireRejects(p.base, model) // unreadable memory: ask the server again
	}
	if p.rejected == nil {
		p.rejected = map[string][]string{}
	}
	p.rejected[model] = fields
	return append([]string(nil), fields...)
}

// reject remembers that the endpoint refused field for model.
func (p *openAIProvider) reject(model, field string) {
	p.mu.Lock()
	if !contains(p.rejected[model], field) {
		p.rejected[model] = append(p.rejected[model], field)
	}
	p.mu.Unlock()
	if p.memory != nil {
		_ = p.memory.AddWireReject(p.base, model, field) // forgotten: the next run asks once more
	}
}

func rejectQuirk(field string) openai.Quirk {
	if field == fieldStreamOptions {
		return openai.QuirkNoStreamOptions
	}
	return openai.QuirkNoParallelField
}
