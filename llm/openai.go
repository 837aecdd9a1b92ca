package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAIConfig configures an OpenAI-compatible Chat Completions provider: OpenAI itself,
// OpenRouter, DeepSeek, Qwen, Ollama, vLLM, llama.cpp.
type OpenAIConfig struct {
	Name       string // the provider's name in errors: "openai", "openrouter", "ollama", …
	BaseURL    string
	APIKey     string
	HTTPClient *http.Client
}

type openAIProvider struct {
	name   string
	client openAIServices
}

// openAIServices are the SDK services troupe calls, built alone (see NewOpenAI).
type openAIServices struct {
	Completions openai.ChatCompletionService
	Models      openai.ModelService // doctor's probe
}

// NewOpenAI returns a Provider speaking Chat Completions with streaming. The SDK's own retries
// are off: StreamWithRetry owns retrying, so a dropped stream is retried once, not twice over.
func NewOpenAI(cfg OpenAIConfig) Provider {
	if cfg.Name == "" {
		cfg.Name = "openai"
	}
	opts := []option.RequestOption{option.WithAPIKey(cfg.APIKey), option.WithMaxRetries(0)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	opts = append(opts, option.WithHTTPClient(watchedClient(cfg.HTTPClient))) // see streamWatched
	// The services troupe calls alone, with the defaults NewClient would apply first: a whole
	// Client builds and links every service of the API (responses, realtime, files, …), which
	// made up about a quarter of troupe's binary.
	opts = append(openai.DefaultClientOptions(), opts...)
	return &openAIProvider{name: cfg.Name, client: openAIServices{
		Completions: openai.NewChatCompletionService(opts...),
		Models:      openai.NewModelService(opts...),
	}}
}

func (p *openAIProvider) Stream(ctx context.Context, req *Request, emit func(Event)) (*Reply, error) {
	stream := p.client.Completions.NewStreaming(ctx, p.params(req))
	defer stream.Close()
	acc := openAIStream{calls: map[int64]*ToolCall{}}
	for stream.Next() {
		acc.add(stream.Current(), emit)
	}
	if err := stream.Err(); err != nil {
		return nil, p.classify(err)
	}
	if acc.finish == "" {
		return nil, ClassifyErr(p.name, fmt.Errorf("%s: %w", p.name, io.ErrUnexpectedEOF))
	}
	reply := acc.reply(req.Model)
	for i := range reply.ToolCalls {
		emit(Event{Kind: EventToolCall, Call: &reply.ToolCalls[i]})
	}
	if acc.usageSeen {
		u := reply.Usage
		emit(Event{Kind: EventUsage, Usage: &u})
	}
	return reply, nil
}

// params maps a Request to Chat Completions parameters.
func (p *openAIProvider) params(req *Request) openai.ChatCompletionNewParams {
	params := openai.ChatCompletionNewParams{
		Model:         req.Model,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		params.Messages = append(params.Messages, openAIMessage(m, req.Model))
	}
	for _, t := range req.Tools {
		var schema shared.FunctionParameters
		if err := json.Unmarshal(t.Schema, &schema); err != nil || schema == nil {
			schema = shared.FunctionParameters{"type": "object"}
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: openai.String(t.Description),
			Parameters:  schema,
		}))
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	if req.CacheKey != "" && p.name == "openai" {
		// Only OpenAI documents prompt_cache_key; strict local servers reject unknown fields.
		params.PromptCacheKey = openai.String(req.CacheKey)
	}
	return params
}

func openAIMessage(m Message, model string) openai.ChatCompletionMessageParamUnion {
	switch m.Role {
	case RoleTool:
		return openai.ToolMessage(m.Content, m.ToolCallID)
	case RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Content != "" {
			a.Content.OfString = openai.String(m.Content)
		}
		for _, c := range m.ToolCalls {
			args := c.Args
			if !json.Valid([]byte(args)) {
				// Ollama and vLLM parse echoed arguments and reject the whole request when they
				// are not JSON; the tool result already told the model what was wrong with them.
				args = "{}"
			}
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: args},
				},
			})
		}
		if m.Reasoning != "" && m.Model == model {
			// DeepSeek, Qwen and OpenRouter read reasoning back from reasoning_content.
			a.SetExtraFields(map[string]any{"reasoning_content": m.Reasoning})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
	default:
		return openai.UserMessage(m.Content)
	}
}

// classify turns an SDK error into a classed *Error.
func (p *openAIProvider) classify(err error) *Error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		body := apiErr.RawJSON()
		if body == "" {
			body = apiErr.Message
		}
		return ClassifyHTTP(p.name, apiErr.StatusCode, h, body, nil)
	}
	return ClassifyErr(p.name, err)
}

// openAIStream assembles a reply from Chat Completions chunks.
type openAIStream struct {
	text, reasoning []byte
	calls           map[int64]*ToolCall
	finish          string
	model           string
	usage           Usage
	usageSeen       bool
}

func (s *openAIStream) add(chunk openai.ChatCompletionChunk, emit func(Event)) {
	if chunk.Model != "" {
		s.model = chunk.Model
	}
	if chunk.JSON.Usage.Valid() && chunk.Usage.JSON.PromptTokens.Valid() {
		s.usageSeen = true
		s.usage = Usage{
			InputTokens:     int(chunk.Usage.PromptTokens),
			OutputTokens:    int(chunk.Usage.CompletionTokens),
			CacheReadTokens: int(chunk.Usage.PromptTokensDetails.CachedTokens),
		}
		if f, ok := chunk.Usage.JSON.ExtraFields["prompt_cache_hit_tokens"]; ok && s.usage.CacheReadTokens == 0 {
			// DeepSeek reports cache hits in its own field.
			_ = json.Unmarshal([]byte(f.Raw()), &s.usage.CacheReadTokens)
		}
	}
	for _, ch := range chunk.Choices {
		d := ch.Delta
		if r := reasoningDelta(d); r != "" {
			s.reasoning = append(s.reasoning, r...)
			emit(Event{Kind: EventReasoning, Text: r})
		}
		if d.Content != "" {
			s.text = append(s.text, d.Content...)
			emit(Event{Kind: EventText, Text: d.Content})
		}
		if d.Refusal != "" {
			s.text = append(s.text, d.Refusal...)
			emit(Event{Kind: EventText, Text: d.Refusal})
			if s.finish == "" {
				s.finish = "content_filter"
			}
		}
		for _, tc := range d.ToolCalls {
			c := s.calls[tc.Index]
			if c == nil {
				c = &ToolCall{}
				s.calls[tc.Index] = c
			}
			if tc.ID != "" {
				c.ID = tc.ID
			}
			if tc.Function.Name != "" {
				c.Name += tc.Function.Name
			}
			c.Args += tc.Function.Arguments
		}
		if ch.FinishReason != "" {
			s.finish = ch.FinishReason
		}
	}
}

// reasoningDelta reads the reasoning text OpenAI-compatible servers put beside content:
// reasoning_content (DeepSeek, Qwen, vLLM) or reasoning (OpenRouter, Ollama).
func reasoningDelta(d openai.ChatCompletionChunkChoiceDelta) string {
	for _, k := range []string{"reasoning_content", "reasoning"} {
		f, ok := d.JSON.ExtraFields[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func (s *openAIStream) reply(model string) *Reply {
	r := &Reply{Text: string(s.text), Reasoning: string(s.reasoning), Usage: s.usage, Model: s.model}
	if r.Model == "" {
		r.Model = model
	}
	for n, i := range slices.Sorted(maps.Keys(s.calls)) {
		c := *s.calls[i]
		if c.ID == "" {
			// Some local servers omit ids; pairing needs one.
			c.ID = fmt.Sprintf("call_%d", n)
		}
		r.ToolCalls = append(r.ToolCalls, c)
	}
	switch s.finish {
	case "tool_calls", "function_call":
		r.Stop = StopToolCalls
	case "length":
		r.Stop = StopLength
	case "content_filter":
		r.Stop = StopRefusal
	default:
		r.Stop = StopEnd
	}
	if len(r.ToolCalls) > 0 && r.Stop == StopEnd {
		// Some servers say "stop" even when they called tools.
		r.Stop = StopToolCalls
	}
	return r
}
