package llm

import (
	"encoding/json"
	"hash/fnv"
	"net/url"
	"strings"

	"github.com/troupe-dev/troupe/llm/openai"
)

// Optional request fields some OpenAI-compatible servers reject. The provider drops one the
// server refused, retries once without it, and remembers that per endpoint and model.
const (
	fieldStreamOptions = "stream_options"
	fieldParallel      = "parallel_tool_calls"
)

// request maps a Request to a Chat Completions request, leaving out the fields the endpoint
// is known to reject. Quirks the mapping needed are added to quirks.
func (p *openAIProvider) request(req *Request, rejected []string, quirks *openai.Quirks) *openai.Request {
	out := &openai.Request{Model: req.Model}
	if !contains(rejected, fieldStreamOptions) {
		out.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	if req.System != "" {
		out.Messages = append(out.Messages, openai.Message{Role: "system", Content: openai.Text(req.System)})
	}
	ids := p.callIDs(req.Model, quirks)
	echoFrom := lastUserMessage(req.Messages)
	for i, m := range req.Messages {
		out.Messages = append(out.Messages, openAIMessage(m, req.Model, i > echoFrom, ids))
	}
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil || schema == nil {
			schema = map[string]any{"type": "object"}
		}
		out.Tools = append(out.Tools, openai.Tool{Type: "function",
			Function: openai.Function{Name: t.Name, Description: t.Description, Parameters: schema}})
	}
	if len(out.Tools) > 0 && !QuirksFor(req.Model).Parallel && !contains(rejected, fieldParallel) {
		// Families that garble several calls in one reply are asked for one at a time.
		no := false
		out.ParallelToolCalls = &no
	}
	out.MaxTokens = req.MaxTokens
	if req.CacheKey != "" && p.name == "openai" {
		// Only OpenAI documents prompt_cache_key; strict local servers reject unknown fields.
		out.PromptCacheKey = req.CacheKey
	}
	return out
}

// lastUserMessage is the index of the last user message, -1 when there is none.
func lastUserMessage(msgs []Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == RoleUser {
			return i
		}
	}
	return -1
}

// openAIMessage maps one message. Reasoning is echoed (as reasoning_details when the server
// sent it so, else as reasoning_content) only for the same model and only inside the current
// tool loop, after the last user message: DeepSeek's thinking mode needs it there for
// multi-step tool calls and wants it gone from earlier turns, Kimi and Qwen's templates read
// it the same way, OpenRouter needs its reasoning_details there (Anthropic and OpenAI models
// behind it check their signed or encrypted reasoning), and the rest ignore it.
func openAIMessage(m Message, model string, inLoop bool, id func(string) string) openai.Message {
	switch m.Role {
	case RoleTool:
		return openai.Message{Role: "tool", Content: openai.Text(m.Content), ToolCallID: id(m.ToolCallID)}
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
			a.ToolCalls = append(a.ToolCalls, openai.ToolCall{ID: id(c.ID), Type: "function",
				Function: openai.FunctionCall{Name: c.Name, Arguments: args}})
		}
		switch {
		case m.Model != model || !inLoop:
		case len(m.ReasoningBlocks) > 0:
			// OpenRouter wants its reasoning_details back whole (signatures and encrypted
			// blocks with them) and reads them in place of the text, which would be a copy.
			a.ReasoningDetails = m.ReasoningBlocks
		case m.Reasoning != "":
			a.ReasoningContent = m.Reasoning
		}
		return a
	default:
		return openai.Message{Role: "user", Content: openai.Text(m.Content)}
	}
}

// callIDs returns how call ids are written for model on this endpoint. Mistral's API (and
// vLLM serving Mistral models) accepts only ids of nine letters and digits, so other ids (made
// up for a server that sent none, or another provider's) are mapped to nine characters, the
// same for a call and its result.
func (p *openAIProvider) callIDs(model string, quirks *openai.Quirks) func(string) string {
	if !p.mistral && QuirksFor(model).Family != "mistral" {
		return func(id string) string { return id }
	}
	return func(id string) string {
		if isMistralID(id) {
			return id
		}
		quirks.Add(openai.QuirkMistralCallIDs)
		return mistralID(id)
	}
}

func isMistralID(id string) bool {
	if len(id) != 9 {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// mistralID maps id to nine letters and digits, deterministically.
func mistralID(id string) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	h := fnv.New64a()
	h.Write([]byte(id))
	n := h.Sum64()
	out := make([]byte, 9)
	for i := range out {
		out[i] = digits[n%62]
		n /= 62
	}
	return string(out)
}

// isMistralHost says base is Mistral's own API.
func isMistralHost(base string) bool {
	u, err := url.Parse(base)
	return err == nil && strings.HasSuffix(u.Hostname(), "mistral.ai")
}

// rejectedField names the optional field an error answer refuses, "" for none: strict
// servers say "Unrecognized request argument supplied: parallel_tool_calls", "extra_forbidden
// … stream_options", "unknown field `stream_options`".
func rejectedField(e *Error, req *openai.Request) string {
	if e.Status != 400 && e.Status != 422 {
		return ""
	}
	msg := e.Err.Error()
	switch {
	case req.StreamOptions != nil && strings.Contains(msg, fieldStreamOptions):
		return fieldStreamOptions
	case req.ParallelToolCalls != nil && strings.Contains(msg, fieldParallel):
		return fieldParallel
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
