// Package llm is troupe's provider layer: one streaming Provider interface, adapters for
// OpenAI-compatible Chat Completions (troupe's own wire, llm/openai), Anthropic Messages and
// Gemini (their official SDKs), the scripted provider used by tests and the offline demo,
// error classes and retries.
//
// No provider name appears outside this package: the rest of troupe sees Request, Event, Reply
// and *Error.
package llm

import (
	"context"
	"encoding/json"
)

// Role is who said a Message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ToolCall is one call the model asked for. Args is the raw argument text exactly as the model
// produced it: it may be malformed JSON, which the tool layer repairs or rejects.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Args string `json:"args"`
}

// Message is one entry of the conversation sent to a provider. The system prompt is not a
// Message; it travels in Request.System.
type Message struct {
	Role Role `json:"role"`
	// Content is the text of a user or assistant message, or the output of a tool result.
	Content string `json:"content,omitempty"`
	// Reasoning is the model's reasoning text of an assistant message. Adapters echo it back
	// only when Model equals the Request's model (reasoning is echoed only to the same model).
	Reasoning string `json:"reasoning,omitempty"`
	// ReasoningBlocks is the provider's own structured record of that reasoning (signed or
	// encrypted blocks), opaque outside its adapter, which sends it back as it came under the
	// same rule as Reasoning.
	ReasoningBlocks json.RawMessage `json:"reasoning_blocks,omitempty"`
	// ToolCalls are the calls of an assistant message, in order.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID and ToolName identify the call a RoleTool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	ToolName   string `json:"tool_name,omitempty"`
	// IsError marks a tool result that reports a failure.
	IsError bool `json:"is_error,omitempty"`
	// Model stamps an assistant message with the model that produced it.
	Model string `json:"model,omitempty"`
}

// ToolSpec describes one tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"` // a JSON Schema object for the arguments
}

// Request is one model call.
type Request struct {
	Model     string // the model name without the provider prefix, e.g. "gpt-4o-mini"
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int // 0: the adapter's default
	// CacheKey identifies the conversation for providers that key prompt caches (the session id).
	CacheKey string
	// Agent is the handle of the agent asking (root, root/verify): for logs and for the scripted
	// provider, which plays each subagent its own script.
	Agent string
}

// EventKind says what an Event carries.
type EventKind int

const (
	EventText      EventKind = iota + 1 // Text holds a delta of the answer
	EventReasoning                      // Text holds a delta of reasoning
	EventToolCall                       // Call holds one complete tool call
	EventUsage                          // Usage holds token counts
	// EventQuirk: Text names a leniency the wire needed to read the reply (a server bending
	// its protocol, see llm/openai.Quirk); sent once per quirk, after the reply is whole.
	EventQuirk
)

// Event is one streamed piece of a reply.
type Event struct {
	Kind  EventKind
	Text  string
	Call  *ToolCall
	Usage *Usage
}

// Usage is what the provider reported for one call.
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	CacheReadTokens int `json:"cache_read_tokens,omitempty"`
}

// StopReason says why the model stopped.
type StopReason string

const (
	StopEnd       StopReason = "end"        // a final answer
	StopToolCalls StopReason = "tool_calls" // it wants tools run
	StopLength    StopReason = "length"     // cut off by the output limit
	StopRefusal   StopReason = "refusal"    // the provider refused (content filter, safety)
)

// Reply is the whole of one call, assembled from its stream.
type Reply struct {
	Text      string
	Reasoning string
	// ReasoningBlocks is the provider's structured record of the reasoning, nil for most
	// (see Message.ReasoningBlocks).
	ReasoningBlocks json.RawMessage
	ToolCalls       []ToolCall
	Usage           Usage
	Stop            StopReason
	Model           string // the model that answered
	// Quirks names the leniencies the wire needed to read this reply (a server bending its
	// protocol); empty for a clean reply.
	Quirks []string
}

// Provider streams one model call. Stream calls emit for each Event as it arrives (from the
// calling goroutine) and returns the assembled Reply. On failure it returns an *Error whose
// Class says whether the caller may retry. A provider never runs tools.
type Provider interface {
	Stream(ctx context.Context, req *Request, emit func(Event)) (*Reply, error)
}
