// Package openai speaks the OpenAI-compatible Chat Completions wire (streaming) and the Models
// list over net/http: the request and chunk shapes, a Server-Sent Events reader, the stream
// decoder and the assembly of a reply from its chunks, lenient where the servers that claim
// the protocol bend it, and saying so (Quirks). It knows nothing of troupe's own types:
// package llm maps them. It never retries; the caller owns retrying.
package openai

import "encoding/json"

// Request is a Chat Completions request. The field order is the order on the wire.
type Request struct {
	Messages          []Message      `json:"messages"`
	Model             string         `json:"model"`
	MaxTokens         int            `json:"max_tokens,omitempty"`
	ParallelToolCalls *bool          `json:"parallel_tool_calls,omitempty"`
	PromptCacheKey    string         `json:"prompt_cache_key,omitempty"`
	StreamOptions     *StreamOptions `json:"stream_options,omitempty"`
	Tools             []Tool         `json:"tools,omitempty"`
	Stream            bool           `json:"stream"`
}

// StreamOptions asks for a usage chunk at the end of the stream.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Message is one message of the conversation. Content is a *string (Text), so that an
// assistant message holding only calls leaves it out while a user's empty message keeps "",
// or a user message's []Part when it carries images.
type Message struct {
	Content          any             `json:"content,omitempty"`
	ToolCalls        []ToolCall      `json:"tool_calls,omitempty"`
	ToolCallID       string          `json:"tool_call_id,omitempty"`
	Role             string          `json:"role"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	ReasoningDetails json.RawMessage `json:"reasoning_details,omitempty"`
}

// Text returns a pointer to s, for Message.Content.
func Text(s string) *string { return &s }

// Part is one part of a user message's content array: text, or an image given as a data: URL.
type Part struct {
	Type     string    `json:"type"` // "text" or "image_url"
	Text     string    `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
}

// ImageURL is an image part's source: "data:image/png;base64,…".
type ImageURL struct {
	URL string `json:"url"`
}

// ToolCall is a call of an assistant message sent back to the model.
type ToolCall struct {
	ID       string       `json:"id"`
	Function FunctionCall `json:"function"`
	Type     string       `json:"type"`
}

// FunctionCall is the name and argument text of a call.
type FunctionCall struct {
	Arguments string `json:"arguments"`
	Name      string `json:"name"`
}

// Tool offers one function to the model.
type Tool struct {
	Function Function `json:"function"`
	Type     string   `json:"type"`
}

// Function describes a tool: Parameters is a JSON Schema object.
type Function struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// Chunk is one streamed chat.completion.chunk, read leniently: every field may be missing.
type Chunk struct {
	Model   string          `json:"model"`
	Choices []Choice        `json:"choices"`
	Usage   *Usage          `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

// Choice is one choice of a chunk; Message is set instead of Delta in a whole
// (non-streamed) completion, which some servers send even when asked to stream.
type Choice struct {
	Delta        Delta  `json:"delta"`
	Message      *Delta `json:"message"`
	FinishReason string `json:"finish_reason"`
}

// Delta is the new part of the reply a chunk carries. The three reasoning fields are the ones
// servers use: reasoning_content (DeepSeek, Qwen, vLLM, Kimi), reasoning (OpenRouter, Ollama,
// LM Studio, Groq), reasoning_details (OpenRouter's structured blocks).
type Delta struct {
	Content          Content         `json:"content"`
	Refusal          string          `json:"refusal"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ReasoningDetails json.RawMessage `json:"reasoning_details"`
	ToolCalls        []CallDelta     `json:"tool_calls"`
}

// CallDelta is a piece of one tool call. Index and ID may be missing; Arguments is a JSON
// string on the wire but some servers send the object itself.
type CallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// Usage is the token count of a call; PromptCacheHitTokens is DeepSeek's own cache field.
type Usage struct {
	PromptTokens        *int `json:"prompt_tokens"`
	CompletionTokens    int  `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
}

// modelList is the answer of GET /models.
type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
}
