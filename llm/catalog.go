package llm

import (
	"slices"
	"strings"
)

// catalog is the models troupe knows by name for each provider, for /model's list and its
// Tab completion. It is a hint, never a limit: any model the provider serves can be asked
// for by name, and a local server's models (ollama, a --base-url) are whatever it has.
var catalog = map[string][]string{
	"openai":     {"gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "o3", "o4-mini"},
	"anthropic":  {"claude-opus-4-1", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-3-5-haiku-latest"},
	"gemini":     {"gemini-2.5-pro", "gemini-2.5-flash"},
	"deepseek":   {"deepseek-chat", "deepseek-reasoner"},
	"openrouter": {"qwen/qwen3-coder", "z-ai/glm-4.6", "moonshotai/kimi-k2", "deepseek/deepseek-chat"},
}

// KnownModels lists "provider/model" for the providers that are configured — their key is set
// in getenv — and the current model's provider (it works, whatever its key), sorted, with the
// current model first if the catalog does not have it. A local provider (ollama, scripted)
// contributes only the current model: its models are what its server has.
func KnownModels(getenv func(string) string, current string) []string {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var out []string
	for provider, names := range catalog {
		if !configured(provider, getenv) && provider != ProviderOf(current) {
			continue
		}
		for _, n := range names {
			out = append(out, provider+"/"+n)
		}
	}
	slices.Sort(out)
	if current != "" && !slices.Contains(out, current) {
		out = append([]string{current}, out...)
	}
	return out
}

// configured reports whether a provider's key is set.
func configured(provider string, getenv func(string) string) bool {
	r, ok := routes[provider]
	if !ok {
		return false
	}
	for _, v := range r.keyVars {
		if strings.TrimSpace(getenv(v)) != "" {
			return true
		}
	}
	return false
}
