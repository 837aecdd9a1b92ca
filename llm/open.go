package llm

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// Options configure Open.
type Options struct {
	// BaseURL overrides the provider's default endpoint (--base-url).
	BaseURL string
	// BaseURLFor is the provider BaseURL was given for ("" for the model's own): Open refuses
	// a base URL given for another provider (see endpoint.go).
	BaseURLFor string
	// Getenv reads keys; nil means no environment.
	Getenv func(string) string
	// HTTPClient is used for every call; nil means a default client.
	HTTPClient *http.Client
	// Memory keeps what the OpenAI-compatible wire learns about endpoints (the store); nil
	// keeps nothing past the process.
	Memory WireMemory
	// Scripts, when set, parses each scripted:PATH file once for every provider opened from
	// it (see ScriptCache); nil parses it at every Open.
	Scripts *ScriptCache
}

// SetupError is a configuration mistake the user must fix: an unknown provider, a missing key.
// Its message is one line that says what to do.
type SetupError struct{ Msg string }

func (e *SetupError) Error() string { return e.Msg }

// route is how one provider prefix is opened.
type route struct {
	keyVars []string // the first one set wins; the first is named in errors
	base    string   // default base URL
	example string   // a model to suggest when its key is set and no model is
	open    func(base, key string, opt Options) Provider
}

func openAICompatible(name string) func(base, key string, opt Options) Provider {
	return func(base, key string, opt Options) Provider {
		return NewOpenAI(OpenAIConfig{Name: name, BaseURL: base, APIKey: key, HTTPClient: opt.HTTPClient, Memory: opt.Memory})
	}
}

var routes = map[string]route{
	"openai": {keyVars: []string{"OPENAI_API_KEY"}, base: "https://api.openai.com/v1", example: "openai/gpt-4o-mini",
		open: openAICompatible("openai")},
	"openrouter": {keyVars: []string{"OPENROUTER_API_KEY"}, base: "https://openrouter.ai/api/v1", example: "openrouter/qwen/qwen3-coder",
		open: openAICompatible("openrouter")},
	"deepseek": {keyVars: []string{"DEEPSEEK_API_KEY"}, base: "https://api.deepseek.com/v1", example: "deepseek/deepseek-chat",
		open: openAICompatible("deepseek")},
	"ollama": {open: openAICompatible("ollama")},
	"anthropic": {keyVars: []string{"ANTHROPIC_API_KEY"}, example: "anthropic/claude-sonnet-4-5", open: func(base, key string, opt Options) Provider {
		return NewAnthropic(AnthropicConfig{BaseURL: base, APIKey: key, HTTPClient: opt.HTTPClient})
	}},
	"gemini": {keyVars: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}, example: "gemini/gemini-2.5-flash", open: func(base, key string, opt Options) Provider {
		return NewGemini(GeminiConfig{BaseURL: base, APIKey: key, HTTPClient: opt.HTTPClient})
	}},
}

// SuggestModel is a model to offer someone who named none: the example of the first provider,
// in name order, whose API key is set, with that key's name; "" and "" when no key is set.
func SuggestModel(getenv func(string) string) (model, keyVar string) {
	names := make([]string, 0, len(routes))
	for name := range routes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r := routes[name]
		for _, k := range r.keyVars {
			if r.example != "" && getenv(k) != "" {
				return r.example, k
			}
		}
	}
	return "", ""
}

// localKey is sent when a local server (--base-url) needs no key: the SDKs insist on one.
const localKey = "not-needed"

// Open resolves a model string — "provider/model" (the model part may contain "/", as in
// "openrouter/qwen/qwen3-coder") or "scripted:PATH" — to a Provider and the model name to put
// in requests.
func Open(model string, opt Options) (Provider, string, error) {
	getenv := opt.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if path, ok := strings.CutPrefix(model, "scripted:"); ok {
		if path == "" {
			return nil, "", &SetupError{Msg: "--model scripted:PATH needs the path of a script file"}
		}
		load := LoadScript
		if opt.Scripts != nil {
			load = opt.Scripts.Load
		}
		s, err := load(path)
		if err != nil {
			return nil, "", &SetupError{Msg: err.Error()}
		}
		return NewScriptedFrom(s), "scripted", nil
	}
	prefix, name, ok := strings.Cut(model, "/")
	if !ok || prefix == "" || name == "" {
		return nil, "", &SetupError{Msg: fmt.Sprintf("model %q must be provider/model (e.g. openai/gpt-4o-mini); providers: %s, or scripted:PATH",
			model, knownProviders())}
	}
	r, ok := routes[prefix]
	if !ok {
		return nil, "", &SetupError{Msg: fmt.Sprintf("unknown provider %q in model %q: use one of %s, or scripted:PATH",
			prefix, model, knownProviders())}
	}
	base, key, err := resolveEndpoint(prefix, r, opt, getenv)
	if err != nil {
		return nil, "", err
	}
	return r.open(base, key, opt), name, nil
}

// ollamaBase turns OLLAMA_HOST ("host:port", "http://host:port" or empty) into Ollama's
// OpenAI-compatible endpoint.
func ollamaBase(host string) string {
	host = strings.TrimRight(strings.TrimSpace(host), "/")
	switch {
	case host == "":
		host = "http://127.0.0.1:11434"
	case !strings.Contains(host, "://"):
		host = "http://" + host
	}
	if strings.HasSuffix(host, "/v1") {
		return host
	}
	return host + "/v1"
}

func knownProviders() string {
	names := make([]string, 0, len(routes))
	for n := range routes {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
