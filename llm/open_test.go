package llm

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestOpenRoutes(t *testing.T) {
	for _, tc := range []struct {
		model, baseURL string
		env            []string
		wantName       string
	}{
		{"openai/gpt-4o-mini", "", []string{"OPENAI_API_KEY", "sk"}, "gpt-4o-mini"},
		{"openrouter/qwen/qwen3-coder", "", []string{"OPENROUTER_API_KEY", "k"}, "qwen/qwen3-coder"},
		{"deepseek/deepseek-chat", "", []string{"DEEPSEEK_API_KEY", "k"}, "deepseek-chat"},
		{"ollama/qwen3:8b", "", nil, "qwen3:8b"},
		{"openai/local", "http://127.0.0.1:8000/v1", nil, "local"}, // no key with a base URL
		{"anthropic/claude-sonnet-4-5", "", []string{"ANTHROPIC_API_KEY", "k"}, "claude-sonnet-4-5"},
		{"gemini/gemini-2.5-flash", "", []string{"GOOGLE_API_KEY", "k"}, "gemini-2.5-flash"},
	} {
		p, name, err := Open(tc.model, Options{BaseURL: tc.baseURL, Getenv: envOf(tc.env...)})
		if err != nil || p == nil || name != tc.wantName {
			t.Errorf("Open(%q) = %v, %q, %v; want model name %q", tc.model, p, name, err, tc.wantName)
		}
	}
}

func TestOpenSetupErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"turns": [ {"text": 1} ]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		model string
		env   []string
		want  []string
	}{
		{"nope/x", nil, []string{`unknown provider "nope"`, "openai", "anthropic", "ollama"}},
		{"gpt-4o", nil, []string{"must be provider/model"}},
		{"openai/gpt-4o", nil, []string{"OPENAI_API_KEY is not set", "--base-url"}},
		{"anthropic/claude", nil, []string{"ANTHROPIC_API_KEY is not set"}},
		{"gemini/flash", nil, []string{"GEMINI_API_KEY is not set"}},
		{"openrouter/a/b", nil, []string{"OPENROUTER_API_KEY is not set"}},
		{"scripted:", nil, []string{"scripted:PATH"}},
		{"scripted:" + bad, nil, []string{"bad.json"}},
	} {
		_, _, err := Open(tc.model, Options{Getenv: envOf(tc.env...)})
		var se *SetupError
		if !errors.As(err, &se) {
			t.Errorf("Open(%q) err = %v, want *SetupError", tc.model, err)
			continue
		}
		if strings.Contains(se.Msg, "\n") {
			t.Errorf("Open(%q): message spans lines: %q", tc.model, se.Msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(se.Msg, w) {
				t.Errorf("Open(%q) = %q, want it to mention %q", tc.model, se.Msg, w)
			}
		}
	}
}

func TestOllamaBase(t *testing.T) {
	for in, want := range map[string]string{
		"":                        "http://127.0.0.1:11434/v1",
		"gpu-box:11434":           "http://gpu-box:11434/v1",
		"https://ollama.example/": "https://ollama.example/v1",
		"http://h:1/v1":           "http://h:1/v1",
	} {
		if got := ollamaBase(in); got != want {
			t.Errorf("ollamaBase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRetryAfterForms(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(4 * time.Second).Format(http.TimeFormat)}}, 4 * time.Second},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{nil, 0},
	} {
		if got := retryAfter(tc.h, now); got != tc.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestClassifyHTTP(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		class  ErrorClass
		msg    string
	}{
		{401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`, Fatal, "Incorrect API key provided"},
		{403, `{"message":"forbidden"}`, Fatal, "forbidden"},
		{400, `{"error":{"message":"prompt is too long: 210000 tokens > 200000 maximum"}}`, Overflow, "prompt is too long"},
		{400, `{"error":{"message":"bad tool schema"}}`, Fatal, "bad tool schema"},
		{429, ``, Retryable, "Too Many Requests"},
		{529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, Retryable, "Overloaded"},
		{502, `<html>bad gateway</html>`, Retryable, "bad gateway"},
	} {
		e := ClassifyHTTP("p", tc.status, nil, tc.body, nil)
		if e.Class != tc.class || !strings.Contains(e.Error(), tc.msg) {
			t.Errorf("ClassifyHTTP(%d, %s) = %v (%s), want %s mentioning %q", tc.status, tc.body, e, e.Class, tc.class, tc.msg)
		}
	}
}

// Someone who names no model is offered one of a provider whose key they have set.
func TestSuggestModelFollowsTheKeysSet(t *testing.T) {
	env := func(set ...string) func(string) string {
		return func(k string) string {
			for _, s := range set {
				if s == k {
					return "x"
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		set        []string
		model, key string
	}{
		{nil, "", ""},
		{[]string{"OPENAI_API_KEY"}, "openai/gpt-4o-mini", "OPENAI_API_KEY"},
		{[]string{"GOOGLE_API_KEY"}, "gemini/gemini-2.5-flash", "GOOGLE_API_KEY"},
		{[]string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY"}, "anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"},
	} {
		model, key := SuggestModel(env(tc.set...))
		if model != tc.model || key != tc.key {
			t.Errorf("keys %v: got %q, %q; want %q, %q", tc.set, model, key, tc.model, tc.key)
		}
		if model != "" {
			if _, _, err := Open(model, Options{Getenv: env(tc.set...)}); err != nil {
				t.Errorf("the suggested %s does not open: %v", model, err)
			}
		}
	}
}
