package llm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// AnthropicConfig configures the Anthropic Messages provider.
type AnthropicConfig struct {
	BaseURL, APIKey string
	HTTPClient      *http.Client
}

// anthropicMaxTokens is the output limit when a Request sets none: Messages requires one.
const anthropicMaxTokens = 8192

type anthropicProvider struct{ client anthropicServices }

// anthropicServices are the SDK services troupe calls, built alone (see NewAnthropic).
type anthropicServices struct {
	Messages anthropic.MessageService
	Models   anthropic.ModelService // doctor's probe
}

// NewAnthropic returns a Provider on the Anthropic Messages API with streaming. SDK retries are
// off: StreamWithRetry owns retrying.
//
// Thinking blocks are not echoed back: troupe does not turn extended thinking on, and echoing a
// thinking block needs its signature, which the conversation does not keep.
func NewAnthropic(cfg AnthropicConfig) Provider {
	opts := []option.RequestOption{option.WithAPIKey(cfg.APIKey), option.WithMaxRetries(0)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	opts = append(opts, option.WithHTTPClient(watchedClient(cfg.HTTPClient))) // see streamWatched
	// The services troupe calls alone, with the defaults NewClient would apply first: a whole
	// Client builds and links every service of the API (batches, files, beta, …).
	opts = append(anthropic.DefaultClientOptions(), opts...)
	return &anthropicProvider{client: anthropicServices{
		Messages: anthropic.NewMessageService(opts...),
		Models:   anthropic.NewModelService(opts...),
	}}
}

func (p *anthropicProvider) Stream(ctx context.Context, req *Request, emit func(Event)) (*Reply, error) {
	stream := p.client.Messages.NewStreaming(ctx, anthropicParams(req))
	defer stream.Close()
	acc := anthropicStream{blocks: map[int64]*anthropicBlock{}}
	for stream.Next() {
		acc.add(stream.Current(), emit)
	}
	if err := stream.Err(); err != nil {
		return nil, classifyAnthropic(err)
	}
	if !acc.stopped {
		return nil, ClassifyErr("anthropic", fmt.Errorf("anthropic: %w", io.ErrUnexpectedEOF))
	}
	reply := acc.reply(req.Model)
	for i := range reply.ToolCalls {
		emit(Event{Kind: EventToolCall, Call: &reply.ToolCalls[i]})
	}
	u := reply.Usage
	emit(Event{Kind: EventUsage, Usage: &u})
	return reply, nil
}

// anthropicParams maps a Request to Messages parameters. Consecutive user-side messages (tool
// results, then any note) become one user turn with the tool results first, as the API wants.
func anthropicParams(req *Request) anthropic.MessageNewParams {
	maxTokens := int64(req.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = anthropicMaxTokens
	}
	params := anthropic.MessageNewParams{Model: anthropic.Model(req.Model), MaxTokens: maxTokens}
	if req.System != "" {
		// The breakpoint on the system prompt caches the tools and the system prompt together.
		params.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	for _, m := range req.Messages {
		var block []anthropic.ContentBlockParamUnion
		role := anthropic.MessageParamRoleUser
		switch m.Role {
		case RoleTool:
			block = append(block, anthropicToolResult(m, req.Model))
		case RoleAssistant:
			role = anthropic.MessageParamRoleAssistant
			if m.Content != "" {
				block = append(block, anthropic.NewTextBlock(m.Content))
			}
			for _, c := range m.ToolCalls {
				block = append(block, anthropic.NewToolUseBlock(c.ID, toolInput(c.Args), c.Name))
			}
			if len(block) == 0 {
				block = append(block, anthropic.NewTextBlock("(no reply)"))
			}
		default:
			send, placeholder := imageParts(m, req.Model)
			block = append(block, anthropic.NewTextBlock(withPlaceholder(m.Content, placeholder)))
			for _, img := range send {
				block = append(block, anthropic.NewImageBlockBase64(img.MediaType, base64.StdEncoding.EncodeToString(img.Data)))
			}
		}
		if n := len(params.Messages); n > 0 && params.Messages[n-1].Role == role {
			params.Messages[n-1].Content = append(params.Messages[n-1].Content, block...)
			continue
		}
		params.Messages = append(params.Messages, anthropic.MessageParam{Role: role, Content: block})
	}
	for _, t := range req.Tools {
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name:        t.Name,
			Description: anthropic.String(t.Description),
			InputSchema: inputSchema(t.Schema),
		}})
	}
	return params
}

// anthropicToolResult is a tool_result block; its images go inside it, after the text, the
// shape the Messages API gives a tool result that returns images.
func anthropicToolResult(m Message, model string) anthropic.ContentBlockParamUnion {
	send, placeholder := imageParts(m, model)
	b := anthropic.NewToolResultBlock(m.ToolCallID, withPlaceholder(m.Content, placeholder), m.IsError)
	for _, img := range send {
		b.OfToolResult.Content = append(b.OfToolResult.Content, anthropic.ToolResultBlockParamContentUnion{
			OfImage: &anthropic.ImageBlockParam{Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
				Data: base64.StdEncoding.EncodeToString(img.Data), MediaType: anthropic.Base64ImageSourceMediaType(img.MediaType)}}}})
	}
	return b
}

// toolInput is a call's arguments as the JSON object tool_use needs; malformed arguments
// (already answered with an error result) become {}.
func toolInput(args string) any {
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return map[string]any{}
	}
	return obj
}

func inputSchema(raw json.RawMessage) anthropic.ToolInputSchemaParam {
	var schema map[string]any
	_ = json.Unmarshal(raw, &schema)
	s := anthropic.ToolInputSchemaParam{Properties: schema["properties"]}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	extra := map[string]any{}
	for k, v := range schema {
		if k != "properties" && k != "required" && k != "type" {
			extra[k] = v
		}
	}
	if len(extra) > 0 {
		s.ExtraFields = extra
	}
	return s
}

func classifyAnthropic(err error) *Error {
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		return ClassifyHTTP("anthropic", apiErr.StatusCode, h, apiErr.RawJSON(), nil)
	}
	return ClassifyErr("anthropic", err)
}

// anthropicBlock is one content block being streamed.
type anthropicBlock struct {
	kind      string // text, thinking, tool_use
	text      []byte
	id, name  string
	inputJSON []byte
}

// anthropicStream assembles a reply from Messages stream events.
type anthropicStream struct {
	blocks  map[int64]*anthropicBlock
	model   string
	stop    anthropic.StopReason
	usage   Usage
	stopped bool
}

func (s *anthropicStream) add(ev anthropic.MessageStreamEventUnion, emit func(Event)) {
	switch ev.Type {
	case "message_start":
		s.model = string(ev.Message.Model)
		u := ev.Message.Usage
		s.usage.InputTokens = int(u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens)
		s.usage.CacheReadTokens = int(u.CacheReadInputTokens)
		s.usage.OutputTokens = int(u.OutputTokens)
	case "content_block_start":
		cb := ev.ContentBlock
		b := &anthropicBlock{kind: cb.Type, id: cb.ID, name: cb.Name}
		s.blocks[ev.Index] = b
		if cb.Text != "" {
			b.text = append(b.text, cb.Text...)
			emit(Event{Kind: EventText, Text: cb.Text})
		}
	case "content_block_delta":
		b := s.blocks[ev.Index]
		if b == nil {
			b = &anthropicBlock{}
			s.blocks[ev.Index] = b
		}
		d := ev.Delta
		switch d.Type {
		case "text_delta":
			b.text = append(b.text, d.Text...)
			emit(Event{Kind: EventText, Text: d.Text})
		case "thinking_delta":
			b.text = append(b.text, d.Thinking...)
			emit(Event{Kind: EventReasoning, Text: d.Thinking})
		case "input_json_delta":
			b.inputJSON = append(b.inputJSON, d.PartialJSON...)
		}
	case "message_delta":
		if ev.Delta.StopReason != "" {
			s.stop = ev.Delta.StopReason
		}
		if ev.Usage.OutputTokens > 0 {
			s.usage.OutputTokens = int(ev.Usage.OutputTokens)
		}
	case "message_stop":
		s.stopped = true
	}
}

func (s *anthropicStream) reply(model string) *Reply {
	r := &Reply{Model: s.model, Usage: s.usage}
	if r.Model == "" {
		r.Model = model
	}
	var text, reasoning []byte
	for _, i := range slices.Sorted(maps.Keys(s.blocks)) {
		b := s.blocks[i]
		switch b.kind {
		case "text":
			text = append(text, b.text...)
		case "thinking":
			reasoning = append(reasoning, b.text...)
		case "tool_use":
			args := string(b.inputJSON)
			if args == "" {
				args = "{}"
			}
			r.ToolCalls = append(r.ToolCalls, ToolCall{ID: b.id, Name: b.name, Args: args})
		}
	}
	r.Text, r.Reasoning = string(text), string(reasoning)
	switch s.stop {
	case anthropic.StopReasonToolUse:
		r.Stop = StopToolCalls
	case anthropic.StopReasonMaxTokens:
		r.Stop = StopLength
	case anthropic.StopReasonRefusal:
		r.Stop = StopRefusal
	default:
		r.Stop = StopEnd
	}
	if len(r.ToolCalls) > 0 && r.Stop == StopEnd {
		r.Stop = StopToolCalls
	}
	return r
}
