package llm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"google.golang.org/genai"
)

// GeminiConfig configures the Gemini API provider.
type GeminiConfig struct {
	BaseURL, APIKey string
	HTTPClient      *http.Client
}

// geminiCallPrefix marks call ids troupe made up: Gemini's function calls may come without one.
const geminiCallPrefix = "gemini_"

type geminiProvider struct {
	cfg GeminiConfig

	mu         sync.Mutex
	client     *genai.Client
	idPrefix   string
	calls      int
	signatures map[string][]byte // call id → the thought signature Gemini wants back with it
}

// NewGemini returns a Provider on the Gemini API (generateContent with streaming). Gemini's
// thought signatures are kept per call id by the provider (one per session), so a function
// call is echoed back with its signature within the session, as Gemini 3 requires.
func NewGemini(cfg GeminiConfig) Provider {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return &geminiProvider{cfg: cfg, idPrefix: geminiCallPrefix + hex.EncodeToString(b[:]) + "_", signatures: map[string][]byte{}}
}

func (p *geminiProvider) connect(ctx context.Context) (*genai.Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.client != nil {
		return p.client, nil
	}
	cc := &genai.ClientConfig{APIKey: p.cfg.APIKey, Backend: genai.BackendGeminiAPI, HTTPClient: watchedClient(p.cfg.HTTPClient)}
	if p.cfg.BaseURL != "" {
		cc.HTTPOptions.BaseURL = p.cfg.BaseURL
	}
	c, err := genai.NewClient(ctx, cc)
	if err != nil {
		return nil, &Error{Class: Fatal, Provider: "gemini", Err: fmt.Errorf("set up the Gemini client: %w", err)}
	}
	p.client = c
	return c, nil
}

func (p *geminiProvider) Stream(ctx context.Context, req *Request, emit func(Event)) (*Reply, error) {
	client, err := p.connect(ctx)
	if err != nil {
		return nil, err
	}
	contents, config := p.params(req)
	r := &Reply{Model: req.Model}
	var text, reasoning strings.Builder
	var finish genai.FinishReason
	for resp, err := range client.Models.GenerateContentStream(ctx, req.Model, contents, config) {
		if err != nil {
			return nil, classifyGemini(err)
		}
		if resp.ModelVersion != "" {
			r.Model = resp.ModelVersion
		}
		if u := resp.UsageMetadata; u != nil {
			r.Usage = Usage{InputTokens: int(u.PromptTokenCount), OutputTokens: int(u.CandidatesTokenCount + u.ThoughtsTokenCount),
				CacheReadTokens: int(u.CachedContentTokenCount)}
		}
		if len(resp.Candidates) == 0 {
			continue
		}
		c := resp.Candidates[0]
		if c.FinishReason != "" {
			finish = c.FinishReason
		}
		if c.Content == nil {
			continue
		}
		for _, part := range c.Content.Parts {
			switch {
			case part.FunctionCall != nil:
				r.ToolCalls = append(r.ToolCalls, p.toolCall(part))
			case part.Thought && part.Text != "":
				reasoning.WriteString(part.Text)
				emit(Event{Kind: EventReasoning, Text: part.Text})
			case part.Text != "":
				text.WriteString(part.Text)
				emit(Event{Kind: EventText, Text: part.Text})
			}
		}
	}
	if finish == "" {
		return nil, ClassifyErr("gemini", fmt.Errorf("gemini: %w", io.ErrUnexpectedEOF))
	}
	r.Text, r.Reasoning = text.String(), reasoning.String()
	r.Stop = geminiStop(finish, len(r.ToolCalls) > 0)
	for i := range r.ToolCalls {
		emit(Event{Kind: EventToolCall, Call: &r.ToolCalls[i]})
	}
	u := r.Usage
	emit(Event{Kind: EventUsage, Usage: &u})
	return r, nil
}

// toolCall turns a functionCall part into a ToolCall, giving it an id when Gemini did not and
// keeping its thought signature.
func (p *geminiProvider) toolCall(part *genai.Part) ToolCall {
	fc := part.FunctionCall
	args, err := json.Marshal(fc.Args)
	if err != nil || fc.Args == nil {
		args = []byte("{}")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	id := fc.ID
	if id == "" {
		id = fmt.Sprintf("%s%d", p.idPrefix, p.calls)
		p.calls++
	}
	if len(part.ThoughtSignature) > 0 {
		p.signatures[id] = part.ThoughtSignature
	}
	return ToolCall{ID: id, Name: fc.Name, Args: string(args)}
}

func geminiStop(f genai.FinishReason, calls bool) StopReason {
	switch {
	case calls:
		return StopToolCalls
	case f == genai.FinishReasonMaxTokens:
		return StopLength
	case f == genai.FinishReasonSafety || f == genai.FinishReasonRecitation || f == genai.FinishReasonProhibitedContent ||
		f == genai.FinishReasonBlocklist || f == genai.FinishReasonSPII:
		return StopRefusal
	}
	return StopEnd
}

// params maps a Request to Gemini contents: assistant turns are "model" turns with
// functionCall parts; tool results are functionResponse parts of the next user turn.
func (p *geminiProvider) params(req *Request) ([]*genai.Content, *genai.GenerateContentConfig) {
	config := &genai.GenerateContentConfig{}
	if req.System != "" {
		config.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: req.System}}}
	}
	if req.MaxTokens > 0 {
		config.MaxOutputTokens = int32(req.MaxTokens)
	}
	if len(req.Tools) > 0 {
		tool := &genai.Tool{}
		for _, t := range req.Tools {
			var schema map[string]any
			_ = json.Unmarshal(t.Schema, &schema)
			tool.FunctionDeclarations = append(tool.FunctionDeclarations, &genai.FunctionDeclaration{
				Name: t.Name, Description: t.Description, ParametersJsonSchema: schema})
		}
		config.Tools = []*genai.Tool{tool}
	}
	var contents []*genai.Content
	add := func(role string, parts ...*genai.Part) {
		if n := len(contents); n > 0 && contents[n-1].Role == role {
			contents[n-1].Parts = append(contents[n-1].Parts, parts...)
			return
		}
		contents = append(contents, &genai.Content{Role: role, Parts: parts})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// Tool results' images follow all the function responses of their turn, as inline data in
	// the same user turn.
	var pending []Image
	flush := func() {
		if len(pending) > 0 {
			add(genai.RoleUser, geminiImages(pending)...)
			pending = nil
		}
	}
	for _, m := range req.Messages {
		if m.Role != RoleTool {
			flush()
		}
		switch m.Role {
		case RoleAssistant:
			var parts []*genai.Part
			if m.Content != "" {
				parts = append(parts, &genai.Part{Text: m.Content})
			}
			for _, c := range m.ToolCalls {
				var args map[string]any
				if json.Unmarshal([]byte(c.Args), &args) != nil {
					args = map[string]any{}
				}
				fc := &genai.FunctionCall{Name: c.Name, Args: args}
				if !strings.HasPrefix(c.ID, geminiCallPrefix) {
					fc.ID = c.ID
				}
				parts = append(parts, &genai.Part{FunctionCall: fc, ThoughtSignature: p.signatures[c.ID]})
			}
			if len(parts) == 0 {
				parts = append(parts, &genai.Part{Text: "(no reply)"})
			}
			add(genai.RoleModel, parts...)
		case RoleTool:
			key := "output"
			if m.IsError {
				key = "error"
			}
			send, placeholder := imageParts(m, req.Model)
			fr := &genai.FunctionResponse{Name: m.ToolName, Response: map[string]any{key: withPlaceholder(m.Content, placeholder)}}
			if !strings.HasPrefix(m.ToolCallID, geminiCallPrefix) {
				fr.ID = m.ToolCallID
			}
			add(genai.RoleUser, &genai.Part{FunctionResponse: fr})
			pending = append(pending, send...)
		default:
			send, placeholder := imageParts(m, req.Model)
			add(genai.RoleUser, append([]*genai.Part{{Text: withPlaceholder(m.Content, placeholder)}}, geminiImages(send)...)...)
		}
	}
	flush()
	return contents, config
}

// geminiImages are images as inline data parts.
func geminiImages(imgs []Image) []*genai.Part {
	var parts []*genai.Part
	for _, img := range imgs {
		parts = append(parts, &genai.Part{InlineData: &genai.Blob{MIMEType: img.MediaType, Data: img.Data}})
	}
	return parts
}

func classifyGemini(err error) *Error {
	var apiErr genai.APIError
	if errors.As(err, &apiErr) {
		return ClassifyHTTP("gemini", apiErr.Code, nil, apiErr.Message, nil)
	}
	var apiErrPtr *genai.APIError
	if errors.As(err, &apiErrPtr) {
		return ClassifyHTTP("gemini", apiErrPtr.Code, nil, apiErrPtr.Message, nil)
	}
	return ClassifyErr("gemini", err)
}
