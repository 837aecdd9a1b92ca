package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"os"
	"strings"
	"sync"
	"time"
)

// Script is the file format of the scripted provider: the turns a fake model plays, in order.
//
//	{"turns": [
//	  {"text": "Reading the test.", "tool_calls": [{"name": "read_file", "args": {"path": "x_test.go"}}]},
//	  {"tool_calls": [{"name": "edit_file", "raw_args": "{\"path\": \"x.go\", trailing garbage"}]},
//	  {"fail": [{"status": 429, "retry_after_s": 1}], "text": "Done."}
//	]}
//
// The turn played is chosen by the number of assistant messages already in the request, so a
// resumed session continues where it stopped and a retried call replays the same turn.
//
// Subagents play their own scripts: Agents maps a task name (the last part of the agent handle
// the request carries, e.g. "verify" for root/verify) to a script, "*" to the script of any
// other agent. An agent's turn is counted from its brief (the last user message that names its
// handle), so a child forked from its parent's history still starts at its own first turn.
type Script struct {
	Turns  []ScriptTurn       `json:"turns"`
	Agents map[string]*Script `json:"agents,omitempty"`
}

// ScriptTurn is one model reply.
type ScriptTurn struct {
	Text      string       `json:"text,omitempty"`
	Reasoning string       `json:"reasoning,omitempty"`
	ToolCalls []ScriptCall `json:"tool_calls,omitempty"`
	// Stop overrides the stop reason ("end", "tool_calls", "length", "refusal").
	Stop StopReason `json:"stop,omitempty"`
	// Fail lists failures returned, one per attempt, before the turn is played.
	Fail []ScriptFailure `json:"fail,omitempty"`
	// DelayMS is slept before replying (honouring cancellation).
	DelayMS int `json:"delay_ms,omitempty"`
	// Expect, when set, must appear in the last message of the request (usually a tool result);
	// otherwise the call fails with a Fatal error naming the turn. Tests use it to check what
	// the harness fed back.
	Expect string `json:"expect,omitempty"`
}

// ScriptCall is a tool call. Args is a JSON value sent as its text; RawArgs, when set, is sent
// verbatim instead (for malformed calls).
type ScriptCall struct {
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args,omitempty"`
	RawArgs string          `json:"raw_args,omitempty"`
}

// ScriptFailure is a simulated provider failure.
type ScriptFailure struct {
	Status        int    `json:"status"`
	RetryAfterS   int    `json:"retry_after_s,omitempty"`
	Message       string `json:"message,omitempty"`
	ContextTooBig bool   `json:"context_too_big,omitempty"`
}

// LoadScript reads and checks a script file. Errors name the file and the entry at fault.
func LoadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	return ParseScript(path, data)
}

// ParseScript decodes and checks a script; name is used in error messages.
func ParseScript(name string, data []byte) (*Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("script %s: %s", name, describeJSONError(data, err))
	}
	if err := checkScript(name, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// checkScript validates a script and its agents' scripts.
func checkScript(name string, s *Script) error {
	if len(s.Turns) == 0 {
		return fmt.Errorf("script %s: no turns (want {\"turns\": [...]})", name)
	}
	for agent, sub := range s.Agents {
		if sub == nil {
			return fmt.Errorf("script %s: agents[%q]: empty", name, agent)
		}
		if err := checkScript(fmt.Sprintf("%s agents[%q]", name, agent), sub); err != nil {
			return err
		}
	}
	for i, t := range s.Turns {
		if t.Text == "" && len(t.ToolCalls) == 0 && t.Stop == "" {
			return fmt.Errorf("script %s: turns[%d]: empty turn: give text or tool_calls", name, i)
		}
		for j, c := range t.ToolCalls {
			if c.Name == "" {
				return fmt.Errorf("script %s: turns[%d].tool_calls[%d]: missing \"name\"", name, i, j)
			}
			if len(c.Args) > 0 && c.RawArgs != "" {
				return fmt.Errorf("script %s: turns[%d].tool_calls[%d]: give args or raw_args, not both", name, i, j)
			}
		}
		switch t.Stop {
		case "", StopEnd, StopToolCalls, StopLength, StopRefusal:
		default:
			return fmt.Errorf("script %s: turns[%d]: unknown stop %q (end, tool_calls, length, refusal)", name, i, t.Stop)
		}
		for j, f := range t.Fail {
			if f.Status < 400 && f.Status != 0 {
				return fmt.Errorf("script %s: turns[%d].fail[%d]: status %d is not an error", name, i, j, f.Status)
			}
		}
	}
	return nil
}

// describeJSONError turns a decoding error into "line L col C: msg".
func describeJSONError(data []byte, err error) string {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
		if e.Field != "" {
			return fmt.Sprintf("%s: got %s, want %s (at line %d)", e.Field, e.Value, e.Type, lineOf(data, off))
		}
	}
	if off < 0 {
		return err.Error()
	}
	return fmt.Sprintf("line %d: %v", lineOf(data, off), err)
}

func lineOf(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// scripted replays a Script. It is safe for concurrent use.
type scripted struct {
	script *Script
	mu     sync.Mutex
	failed map[string]int // agent#turn -> failures already returned
}

// NewScripted loads a script file and returns a Provider that plays it.
func NewScripted(path string) (Provider, error) {
	s, err := LoadScript(path)
	if err != nil {
		return nil, err
	}
	return NewScriptedFrom(s), nil
}

// NewScriptedFrom returns a Provider that plays s.
func NewScriptedFrom(s *Script) Provider {
	return &scripted{script: s, failed: map[string]int{}}
}

func (p *scripted) Stream(ctx context.Context, req *Request, emit func(Event)) (*Reply, error) {
	script, agent, from, err := p.scriptFor(req)
	if err != nil {
		return nil, err
	}
	idx := 0
	for _, m := range req.Messages[from:] {
		if m.Role == RoleAssistant {
			idx++
		}
	}
	if idx >= len(script.Turns) {
		return nil, &Error{Class: Fatal, Provider: "scripted",
			Err: fmt.Errorf("script exhausted: the model was asked for turn %d but the script%s has %d", idx+1, agentLabel(agent), len(script.Turns))}
	}
	turn := script.Turns[idx]
	if err := p.failure(agent, idx, turn); err != nil {
		return nil, err
	}
	if turn.Expect != "" && len(req.Messages) > 0 {
		last := lastConversational(req.Messages)
		if !strings.Contains(last, turn.Expect) {
			return nil, &Error{Class: Fatal, Provider: "scripted",
				Err: fmt.Errorf("turns[%d]: expected the last message to contain %q, got %q", idx, turn.Expect, textfmt.Clip(last, 300))}
		}
	}
	if turn.DelayMS > 0 {
		t := time.NewTimer(time.Duration(turn.DelayMS) * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &Error{Class: Canceled, Provider: "scripted", Err: ctx.Err()}
		case <-t.C:
		}
	}
	reply := &Reply{Text: turn.Text, Reasoning: turn.Reasoning, Model: "scripted"}
	if turn.Reasoning != "" {
		emit(Event{Kind: EventReasoning, Text: turn.Reasoning})
	}
	for _, piece := range chunks(turn.Text, 24) {
		emit(Event{Kind: EventText, Text: piece})
	}
	for j, c := range turn.ToolCalls {
		args := c.RawArgs
		if args == "" {
			args = string(c.Args)
		}
		if args == "" {
			args = "{}"
		}
		call := ToolCall{ID: fmt.Sprintf("call_%d_%d", idx, j), Name: c.Name, Args: args}
		if agent != "" {
			call.ID = fmt.Sprintf("call_%s_%d_%d", agent, idx, j) // unique beside a forked parent's calls
		}
		reply.ToolCalls = append(reply.ToolCalls, call)
		emit(Event{Kind: EventToolCall, Call: &call})
	}
	reply.Stop = turn.Stop
	if reply.Stop == "" {
		reply.Stop = StopEnd
		if len(reply.ToolCalls) > 0 {
			reply.Stop = StopToolCalls
		}
	}
	reply.Usage = Usage{InputTokens: estimateRequestTokens(req), OutputTokens: (len(turn.Text) + len(turn.Reasoning)) / 4}
	emit(Event{Kind: EventUsage, Usage: &reply.Usage})
	return reply, nil
}

// scriptFor picks the script that answers req: the main one for the root agent, else the
// agent's own (by task name, then "*"). from is where the agent's messages start: its brief.
func (p *scripted) scriptFor(req *Request) (script *Script, agent string, from int, err error) {
	if req.Agent == "" || req.Agent == "root" {
		return p.script, "", 0, nil
	}
	name := req.Agent[strings.LastIndexByte(req.Agent, '/')+1:]
	script = p.script.Agents[name]
	if script == nil {
		script = p.script.Agents["*"]
	}
	if script == nil {
		return nil, "", 0, &Error{Class: Fatal, Provider: "scripted",
			Err: fmt.Errorf("the script has no agents entry for %q (nor \"*\")", name)}
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == RoleUser && strings.Contains(m.Content, req.Agent) {
			from = i
			break
		}
	}
	return script, req.Agent, from, nil
}

// lastConversational is the content of the last message that is not the harness's state
// block (which follows the conversation on every call): what an expect is about.
func lastConversational(msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if !strings.HasPrefix(msgs[i].Content, "[troupe state]") {
			return msgs[i].Content
		}
	}
	return ""
}

func agentLabel(agent string) string {
	if agent == "" {
		return ""
	}
	return " of " + agent
}

// failure returns the next scripted failure of turn idx of agent, if any remain.
func (p *scripted) failure(agent string, idx int, turn ScriptTurn) error {
	key := fmt.Sprintf("%s#%d", agent, idx)
	p.mu.Lock()
	n := p.failed[key]
	if n >= len(turn.Fail) {
		p.mu.Unlock()
		return nil
	}
	p.failed[key] = n + 1
	p.mu.Unlock()
	f := turn.Fail[n]
	msg := f.Message
	if msg == "" {
		msg = fmt.Sprintf("scripted failure %d of turn %d", n+1, idx)
	}
	e := &Error{Provider: "scripted", Status: f.Status, RetryAfter: time.Duration(f.RetryAfterS) * time.Second, Err: fmt.Errorf("%s", msg)}
	switch {
	case f.ContextTooBig:
		e.Class = Overflow
	case f.Status == 401 || f.Status == 403 || f.Status == 400 || f.Status == 404:
		e.Class = Fatal
	default:
		e.Class = Retryable
	}
	return e
}

func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// estimateRequestTokens is a rough size of a request for the scripted provider's usage report.
func estimateRequestTokens(req *Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.Reasoning)
		for _, c := range m.ToolCalls {
			n += len(c.Args) + len(c.Name)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Description) + len(t.Schema)
	}
	return n / 4
}
