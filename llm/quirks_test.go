package llm

import "testing"

func TestQuirksMatchTheFamilyFromTheModelName(t *testing.T) {
	cases := map[string]string{
		"ollama/qwen2.5-coder:7b":             "qwen2.5-coder",
		"openrouter/qwen/qwen3-coder":         "qwen3-coder",
		"Qwen3-Coder-30B-A3B-Instruct":        "qwen3-coder",
		"zai/glm-4.6":                         "glm",
		"deepseek/deepseek-chat":              "deepseek",
		"mistral/devstral-small-2505":         "mistral",
		"ollama/llama3.1:8b":                  "llama",
		"openai/gpt-oss-20b":                  "gpt-oss",
		"moonshot/kimi-k2":                    "kimi",
		"ollama/gemma3:12b":                   "gemma",
		"minimax/MiniMax-M2":                  "minimax",
		"ollama/lfm2:1.2b":                    "lfm",
		"anthropic/claude-sonnet-4-5":         "claude",
		"openai/gpt-4o-mini":                  "gpt",
		"gemini/gemini-2.5-flash":             "gemini",
		"something/never-heard-of-it":         "unknown",
		"hf.co/unsloth/Qwen2.5-Coder-7B-GGUF": "qwen2.5-coder",
	}
	for model, want := range cases {
		if got := QuirksFor(model).Family; got != want {
			t.Errorf("QuirksFor(%q).Family = %q, want %q", model, got, want)
		}
	}
}

func TestWeakFamiliesGetOneLineHintsAndFrontierNone(t *testing.T) {
	if h := QuirksFor("ollama/qwen2.5-coder").PromptHint; h == "" || len(h) > 200 {
		t.Errorf("qwen2.5-coder hint %q: want one short line", h)
	}
	for _, m := range []string{"anthropic/claude-sonnet-4-5", "openai/gpt-4o", "fake"} {
		if h := QuirksFor(m).PromptHint; h != "" {
			t.Errorf("%s gets a hint %q: the prompt of capable models must not grow", m, h)
		}
	}
	if q := QuirksFor("unknown-model"); q.TextFormat != "hermes" || q.Parallel {
		t.Errorf("unknown model quirks %+v: want the cautious defaults", q)
	}
}
