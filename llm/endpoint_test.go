package llm

import (
	"errors"
	"strings"
	"testing"
)

func TestEndpointFor(t *testing.T) {
	const local = "http://127.0.0.1:8080/v1"
	for _, c := range []struct{ from, base, to, want string }{
		{"openai/gpt-4o", local, "openai/gpt-4o-mini", local},
		{"openai/gpt-4o", local, "anthropic/claude-sonnet-4-5", ""},
		{"openai/gpt-4o", local, "gemini/gemini-2.5-pro", ""},
		{"openrouter/qwen/qwen3-coder", local, "openrouter/z-ai/glm-4.6", local},
		{"openrouter/qwen/qwen3-coder", local, "openai/qwen/qwen3-coder", ""},
		{"ollama/qwen2.5-coder", local, "ollama/llama3", local},
		{"anthropic/claude-sonnet-4-5", "", "openai/gpt-4o", ""},
		{"openai/gpt-4o", "", "openai/gpt-4o-mini", ""},
		{"scripted:/tmp/a.json", local, "scripted:/tmp/b.json", ""},
		{"openai/gpt-4o", local, "scripted:/tmp/b.json", ""},
		{"gpt-4o", local, "gpt-4o", ""},
	} {
		if got := EndpointFor(c.from, c.base, c.to); got != c.want {
			t.Errorf("EndpointFor(%q, %q, %q) = %q, want %q", c.from, c.base, c.to, got, c.want)
		}
	}
}

// TestResolveEndpoint: where a provider's requests go and which key goes with them.
func TestResolveEndpoint(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-openai", "ANTHROPIC_API_KEY": "sk-ant", "GOOGLE_API_KEY": "g-key"}
	getenv := func(k string) string { return env[k] }
	const local = "http://127.0.0.1:9/v1"
	for _, c := range []struct {
		prefix, base, baseFor string
		wantBase, wantKey     string
		wantErr               string
	}{
		{prefix: "openai", wantBase: "https://api.openai.com/v1", wantKey: "sk-openai"},
		{prefix: "openai", base: local, wantBase: local, wantKey: "sk-openai"},
		{prefix: "openai", base: local, baseFor: "openai", wantBase: local, wantKey: "sk-openai"},
		{prefix: "anthropic", base: local, baseFor: "openai", wantErr: "was given for openai, not anthropic"},
		{prefix: "gemini", base: local, baseFor: "openai", wantErr: "was given for openai, not gemini"},
		{prefix: "anthropic", wantBase: "", wantKey: "sk-ant"},
		{prefix: "gemini", wantKey: "g-key"},
		{prefix: "deepseek", wantErr: "DEEPSEEK_API_KEY is not set"},
		{prefix: "deepseek", base: local, wantBase: local, wantKey: localKey},
		{prefix: "ollama", wantBase: "http://127.0.0.1:11434/v1", wantKey: localKey},
	} {
		base, key, err := resolveEndpoint(c.prefix, routes[c.prefix], Options{BaseURL: c.base, BaseURLFor: c.baseFor}, getenv)
		var se *SetupError
		switch {
		case c.wantErr != "":
			if err == nil || !errors.As(err, &se) || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%+v: err %v, want a setup error with %q", c, err, c.wantErr)
			}
			if key != "" || base != "" {
				t.Errorf("%+v: a refusal still returned %q %q", c, base, key)
			}
		case err != nil:
			t.Errorf("%+v: %v", c, err)
		case base != c.wantBase || key != c.wantKey:
			t.Errorf("%+v: got %q %q, want %q %q", c, base, key, c.wantBase, c.wantKey)
		}
	}
}
