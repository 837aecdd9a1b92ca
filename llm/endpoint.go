package llm

import (
	"fmt"
	"strings"
)

// An endpoint belongs to its provider. A base URL given for one provider (--base-url with
// openai/…, a config's base_url) is never used for another: a session that switches to
// another provider (/model, troupe resume --model, a role's model, a subagent) goes to that
// provider's own endpoint, and a key is only ever sent to its own provider's endpoint. Open
// refuses a foreign base URL (Options.BaseURLFor); EndpointFor is what a switch keeps.

// ProviderOf is the provider prefix of a "provider/model" string; "" for anything else
// (scripted:PATH, a bare name).
func ProviderOf(model string) string {
	prefix, name, ok := strings.Cut(model, "/")
	if !ok || name == "" || strings.Contains(prefix, ":") {
		return ""
	}
	return prefix
}

// EndpointFor is the base URL model to may use when baseURL was given for model from: baseURL
// when both name the same provider, else "" (to's provider's own endpoint).
func EndpointFor(from, baseURL, to string) string {
	if p := ProviderOf(from); baseURL == "" || p == "" || p != ProviderOf(to) {
		return ""
	}
	return baseURL
}

// resolveEndpoint is where requests for the provider prefix (route r) go and the key sent
// with them: the base URL given when it was given for this provider, else the provider's own;
// its own key, or a placeholder for a local server (a base URL given, or a keyless provider).
// A base URL given for another provider is refused, and a missing key is an error at once.
func resolveEndpoint(prefix string, r route, opt Options, getenv func(string) string) (base, key string, err error) {
	if opt.BaseURL != "" && opt.BaseURLFor != "" && opt.BaseURLFor != prefix {
		return "", "", &SetupError{Msg: fmt.Sprintf("the base URL %s was given for %s, not %s: %s requests (and its key) go to its own endpoint; pass --base-url again for it",
			opt.BaseURL, opt.BaseURLFor, prefix, prefix)}
	}
	base = opt.BaseURL
	if base == "" {
		base = r.base
	}
	if prefix == "ollama" && base == "" {
		base = ollamaBase(getenv("OLLAMA_HOST"))
	}
	for _, v := range r.keyVars {
		if key = getenv(v); key != "" {
			return base, key, nil
		}
	}
	if len(r.keyVars) == 0 || opt.BaseURL != "" {
		return base, localKey, nil
	}
	return "", "", &SetupError{Msg: fmt.Sprintf("%s is not set: export it, or pass --base-url for a local server", r.keyVars[0])}
}
