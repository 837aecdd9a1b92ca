package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm/llmtest"
	"github.com/troupe-dev/troupe/messages"
)

// pairingViolations checks an OpenAI Chat Completions request body: every assistant tool call is
// answered by exactly one tool message, in order, before the next assistant or user message.
func pairingViolations(body []byte) []string {
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return []string{"unparsable request: " + err.Error()}
	}
	var problems, pending []string
	for i, m := range req.Messages {
		switch m.Role {
		case "assistant", "user":
			if len(pending) > 0 {
				problems = append(problems, "unanswered calls before message "+string(rune('0'+i)))
			}
			pending = nil
			for _, c := range m.ToolCalls {
				pending = append(pending, c.ID)
			}
		case "tool":
			if len(pending) == 0 || pending[0] != m.ToolCallID {
				problems = append(problems, "tool result out of order or unmatched: "+m.ToolCallID)
				continue
			}
			pending = pending[1:]
		}
	}
	if len(pending) > 0 {
		problems = append(problems, "unanswered calls at the end")
	}
	return problems
}

// The OpenAI-compatible path (llm/openai), against a real SSE server on 127.0.0.1:
// a tool call, its result fed back, a final answer; every request keeps the pairing invariant.
func TestOpenAICompatibleEndToEnd(t *testing.T) {
	repo := newRepo(t, map[string]string{"README.md": "# sample\nMARK-7f3a\n"})
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Text: "Reading it.", Calls: []llmtest.Call{{Name: "read_file", Args: `{"path":"README.md"}`}}}
		}
		raw, _ := json.Marshal(body)
		if strings.Contains(string(raw), "MARK-7f3a") {
			return llmtest.Reply{Text: "FINISHED saw-marker"}
		}
		return llmtest.Reply{Text: "FINISHED no-marker"}
	})
	defer srv.Close()
	r := troupe(t, repo, testEnv(t, "OPENAI_API_KEY=sk-test"), "run", "--json", "--model", "openai/fake", "--base-url", srv.URL(), "--mode", "yolo", "Read README.md")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	envs := envelopes(t, r.stdout)
	checkEnvelopes(t, envs)
	if fin := finished(t, envs); fin.Final != "FINISHED saw-marker" {
		t.Errorf("final = %q", fin.Final)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d", len(reqs))
	}
	for i, req := range reqs {
		if p := pairingViolations(req.Body); len(p) > 0 {
			t.Errorf("request %d: %v", i, p)
		}
		if got := req.Header.Get("Authorization"); got != "Bearer sk-test" {
			t.Errorf("request %d: Authorization %q", i, got)
		}
	}
}

func TestRateLimitIsRetriedHonouringRetryAfter(t *testing.T) {
	repo := newRepo(t, nil)
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Status: 429, RetryAfter: "1"}
		}
		return llmtest.Reply{Text: "ok"}
	})
	defer srv.Close()
	r := troupe(t, repo, testEnv(t, "OPENAI_API_KEY=sk-test"), "run", "--json", "--model", "openai/fake", "--base-url", srv.URL(), "hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	envs := envelopes(t, r.stdout)
	var retry *messages.ModelRetryData
	for _, e := range envs {
		if e.Type == messages.EventModelRetry {
			v, _ := e.DecodeData()
			retry = v.(*messages.ModelRetryData)
		}
	}
	if retry == nil || retry.DelayMS < 1000 || retry.Status != 429 {
		t.Errorf("model.retry = %+v, want a 429 retry after ≥1000ms", retry)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestAuthFailureIsNotRetried(t *testing.T) {
	repo := newRepo(t, nil)
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply { return llmtest.Reply{Status: 401} })
	defer srv.Close()
	r := troupe(t, repo, testEnv(t, "OPENAI_API_KEY=sk-bad"), "run", "--model", "openai/fake", "--base-url", srv.URL(), "hi")
	if r.code != 2 {
		t.Errorf("exit %d, want 2: %s", r.code, r.stderr)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("401 was sent %d times", n)
	}
	if !strings.Contains(r.stderr, "API key") {
		t.Errorf("stderr does not point at the key:\n%s", r.stderr)
	}
}

func TestAnthropicEndToEnd(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha-line\n"})
	srv := llmtest.NewAnthropic(func(n int, body map[string]any) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Reasoning: "look first", Calls: []llmtest.Call{{Name: "read_file", Args: `{"path":"a.txt"}`}}}
		}
		raw, _ := json.Marshal(body)
		if strings.Contains(string(raw), "alpha-line") {
			return llmtest.Reply{Text: "saw alpha"}
		}
		return llmtest.Reply{Text: "missed it"}
	})
	defer srv.Close()
	r := troupe(t, repo, testEnv(t, "ANTHROPIC_API_KEY=sk-ant"), "run", "--json", "--model", "anthropic/claude-test", "--base-url", srv.URL(), "read a.txt")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if fin := finished(t, envelopes(t, r.stdout)); fin.Final != "saw alpha" {
		t.Errorf("final = %q", fin.Final)
	}
}
