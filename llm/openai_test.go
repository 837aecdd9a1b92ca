package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

// openAIAgainst starts a fake Chat Completions server with fixed replies and a provider
// pointing at it.
func openAIAgainst(t *testing.T, replies ...llmtest.Reply) (Provider, *llmtest.OpenAIServer) {
	t.Helper()
	srv := llmtest.NewOpenAI(func(n int, _ map[string]any) llmtest.Reply {
		if n < len(replies) {
			return replies[n]
		}
		return llmtest.Reply{Text: "extra"}
	})
	t.Cleanup(srv.Close)
	return NewOpenAI(OpenAIConfig{Name: "openai", BaseURL: srv.URL(), APIKey: "sk-test"}), srv
}

func simpleRequest() *Request {
	return &Request{Model: "gpt-test", System: "be brief", Messages: []Message{{Role: RoleUser, Content: "hi"}}}
}

// collect streams req and returns the reply and the events in order.
func collect(t *testing.T, p Provider, req *Request) (*Reply, []Event, error) {
	t.Helper()
	var evs []Event
	r, err := p.Stream(context.Background(), req, func(e Event) { evs = append(evs, e) })
	return r, evs, err
}

func TestOpenAIStreamsTextReasoningAndUsage(t *testing.T) {
	p, _ := openAIAgainst(t, llmtest.Reply{Text: "Hello there, this is a longer answer.", Reasoning: "think about greeting",
		InputTokens: 42, OutputTokens: 7})
	r, evs, err := collect(t, p, simpleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "Hello there, this is a longer answer." || r.Reasoning != "think about greeting" || r.Stop != StopEnd {
		t.Fatalf("reply = %+v", r)
	}
	if r.Usage.InputTokens != 42 || r.Usage.OutputTokens != 7 {
		t.Errorf("usage = %+v", r.Usage)
	}
	var text, reasoning strings.Builder
	var textEvents, usageEvents int
	for _, e := range evs {
		switch e.Kind {
		case EventText:
			textEvents++
			text.WriteString(e.Text)
		case EventReasoning:
			reasoning.WriteString(e.Text)
		case EventUsage:
			usageEvents++
		}
	}
	if textEvents < 2 || text.String() != r.Text || reasoning.String() != r.Reasoning || usageEvents != 1 {
		t.Errorf("events: %d text deltas %q, reasoning %q, %d usage", textEvents, text.String(), reasoning.String(), usageEvents)
	}
}

func TestOpenAIAssemblesToolCallsInOrderVerbatim(t *testing.T) {
	calls := []llmtest.Call{
		{Name: "read_file", Args: `{"path":"main.go","offset":10,"limit":200}`},
		{Name: "bash", Args: `{"command": "go test ./...", `}, // malformed: passed through verbatim
		{Name: "glob", Args: `{"pattern":"**/*.go"}`},
	}
	p, _ := openAIAgainst(t, llmtest.Reply{Calls: calls})
	r, evs, err := collect(t, p, simpleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if r.Stop != StopToolCalls || len(r.ToolCalls) != 3 {
		t.Fatalf("reply = %+v", r)
	}
	var emitted []string
	for _, e := range evs {
		if e.Kind == EventToolCall {
			emitted = append(emitted, e.Call.ID)
		}
	}
	for i, c := range calls {
		got := r.ToolCalls[i]
		if got.Name != c.Name || got.Args != c.Args || got.ID == "" {
			t.Errorf("call %d = %+v, want %s %s", i, got, c.Name, c.Args)
		}
		if i >= len(emitted) || emitted[i] != got.ID {
			t.Errorf("emitted call ids %v, want %s at %d", emitted, got.ID, i)
		}
	}
}

func TestOpenAIStopReasons(t *testing.T) {
	for _, tc := range []struct {
		stop string
		want StopReason
	}{{"stop", StopEnd}, {"length", StopLength}, {"content_filter", StopRefusal}} {
		p, _ := openAIAgainst(t, llmtest.Reply{Text: "x", Stop: tc.stop})
		r, _, err := collect(t, p, simpleRequest())
		if err != nil {
			t.Fatal(err)
		}
		if r.Stop != tc.want {
			t.Errorf("finish %q: stop = %q, want %q", tc.stop, r.Stop, tc.want)
		}
	}
}

func TestOpenAIErrorsAreClassified(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply llmtest.Reply
		class ErrorClass
		want  string
	}{
		{"401", llmtest.Reply{Status: 401}, Fatal, "Incorrect API key"},
		{"404", llmtest.Reply{Status: 404, Text: "The model `nope` does not exist"}, Fatal, "does not exist — check the model name"},
		{"429", llmtest.Reply{Status: 429, RetryAfter: "3"}, Retryable, "rate limit"},
		{"500", llmtest.Reply{Status: 500}, Retryable, "server had an error"},
		{"overflow", llmtest.Reply{Status: 400, Stop: "context_length_exceeded",
			Text: "This model's maximum context length is 32768 tokens."}, Overflow, "maximum context length"},
		{"dropped", llmtest.Reply{Text: "a long answer that will be cut", DropAfter: 2}, Retryable, "ended before"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := openAIAgainst(t, tc.reply)
			_, _, err := collect(t, p, simpleRequest())
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Class != tc.class || !strings.Contains(e.Error(), tc.want) {
				t.Fatalf("err = %v (class %s), want class %s mentioning %q", e, e.Class, tc.class, tc.want)
			}
			if tc.name == "429" && e.RetryAfter != 3*time.Second {
				t.Errorf("RetryAfter = %v, want 3s", e.RetryAfter)
			}
		})
	}
}

func TestOpenAIUnreachableSaysWhere(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := NewOpenAI(OpenAIConfig{Name: "ollama", BaseURL: "http://" + addr + "/v1", APIKey: "x"})
	_, _, err = collect(t, p, simpleRequest())
	if !IsUnreachable(err) || ClassOf(err) != Retryable {
		t.Fatalf("err = %v, want unreachable and retryable", err)
	}
	if want := "cannot reach http://" + addr + ": connection refused"; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q, want it to contain %q", err, want)
	}
}

func TestOpenAIRetriesThroughStreamWithRetry(t *testing.T) {
	p, srv := openAIAgainst(t,
		llmtest.Reply{Status: 429, RetryAfter: "2"},
		llmtest.Reply{Status: 500},
		llmtest.Reply{Text: "cut off mid", DropAfter: 2},
		llmtest.Reply{Text: "done"})
	var infos []RetryInfo
	var slept []time.Duration
	pol := RetryPolicy{MaxAttempts: 6, BaseDelay: time.Second, MaxDelay: 30 * time.Second,
		OnRetry: func(i RetryInfo) { infos = append(infos, i) },
		Sleep:   func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	r, err := StreamWithRetry(context.Background(), p, simpleRequest(), func(Event) {}, pol)
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "done" || len(srv.Requests()) != 4 || len(infos) != 3 {
		t.Fatalf("reply %q after %d requests, %d retries", r.Text, len(srv.Requests()), len(infos))
	}
	if slept[0] != 2*time.Second || infos[0].Err.Status != 429 || infos[1].Err.Status != 500 {
		t.Errorf("first retry waited %v for %v; second %v", slept[0], infos[0].Err, infos[1].Err)
	}
	if slept[1] <= 0 || slept[1] > 2*time.Second || slept[2] <= 0 || slept[2] > 4*time.Second {
		t.Errorf("backoff delays %v outside the jitter ceilings 2s, 4s", slept[1:])
	}
}

func TestOpenAIAuthFailureIsNotRetried(t *testing.T) {
	p, srv := openAIAgainst(t, llmtest.Reply{Status: 401}, llmtest.Reply{Text: "should not be reached"})
	pol := RetryPolicy{MaxAttempts: 6, Sleep: func(context.Context, time.Duration) error { return nil }}
	_, err := StreamWithRetry(context.Background(), p, simpleRequest(), func(Event) {}, pol)
	if ClassOf(err) != Fatal || len(srv.Requests()) != 1 {
		t.Fatalf("err %v after %d requests; want one fatal request", err, len(srv.Requests()))
	}
}

// goldenConversation is a fixed multi-turn request: system, user, an assistant tool call with
// reasoning (echoed: same model), another model's reasoning (not echoed), tool results.
func goldenConversation() *Request {
	return &Request{
		Model:    "gpt-test",
		System:   "You are troupe.",
		CacheKey: "s-golden",
		Messages: []Message{
			{Role: RoleUser, Content: "fix the failing test"},
			{Role: RoleAssistant, Content: "Reading it.", Reasoning: "start with the test", Model: "gpt-test",
				ToolCalls: []ToolCall{{ID: "call_a", Name: "read_file", Args: `{"path":"calc_test.go"}`},
					{ID: "call_b", Name: "bash", Args: `{"command":"go test`}}},
			{Role: RoleTool, ToolCallID: "call_a", ToolName: "read_file", Content: "1\tpackage calc"},
			{Role: RoleTool, ToolCallID: "call_b", ToolName: "bash", Content: "invalid JSON", IsError: true},
			{Role: RoleAssistant, Content: "Fixed.", Reasoning: "other model thoughts", Model: "other-model"},
			{Role: RoleUser, Content: "thanks"},
		},
		Tools: []ToolSpec{{Name: "read_file", Description: "Read a file.",
			Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}},
		MaxTokens: 1024,
	}
}

func TestGoldenOpenAIRequest(t *testing.T) {
	p, srv := openAIAgainst(t, llmtest.Reply{Text: "ok"})
	if _, _, err := collect(t, p, goldenConversation()); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization = %q", got)
	}
	checkGolden(t, "openai_request.golden.json", reqs[0].Body)
}
