package llm

import "strings"

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input, Output, CachedInput float64
}

// prices maps a model-name prefix (lower case, no provider prefix) to its list price, as the
// providers publish them; PriceOf picks the longest matching prefix. Local models (ollama,
// scripted) cost nothing and are not listed; an unknown model has no price, never a guess.
var prices = map[string]Price{
	"gpt-4o":            {2.50, 10.00, 1.25},
	"gpt-4o-mini":       {0.15, 0.60, 0.075},
	"gpt-4.1":           {2.00, 8.00, 0.50},
	"gpt-4.1-mini":      {0.40, 1.60, 0.10},
	"gpt-4.1-nano":      {0.10, 0.40, 0.025},
	"gpt-5":             {1.25, 10.00, 0.125},
	"gpt-5-mini":        {0.25, 2.00, 0.025},
	"gpt-5-nano":        {0.05, 0.40, 0.005},
	"o3":                {2.00, 8.00, 0.50},
	"o4-mini":           {1.10, 4.40, 0.275},
	"claude-opus-4":     {15.00, 75.00, 1.50},
	"claude-sonnet-4":   {3.00, 15.00, 0.30},
	"claude-haiku-4":    {1.00, 5.00, 0.10},
	"claude-3-5-haiku":  {0.80, 4.00, 0.08},
	"gemini-2.5-pro":    {1.25, 10.00, 0.31},
	"gemini-2.5-flash":  {0.30, 2.50, 0.075},
	"deepseek-chat":     {0.27, 1.10, 0.07},
	"deepseek-reasoner": {0.55, 2.19, 0.14},
	"qwen3-coder":       {0.22, 0.95, 0},
	"glm-4.6":           {0.60, 2.20, 0.11},
	"kimi-k2":           {0.60, 2.50, 0.15},
}

// PriceOf returns model's list price and whether the table knows it. model may carry provider
// prefixes ("openrouter/qwen/qwen3-coder") and tags; models served locally cost nothing.
func PriceOf(model string) (Price, bool) {
	name := strings.ToLower(strings.TrimSpace(model))
	if strings.HasPrefix(name, "ollama/") || strings.HasPrefix(name, "scripted") {
		return Price{}, true
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best, price := "", Price{}
	for prefix, p := range prices {
		if len(prefix) > len(best) && strings.HasPrefix(name, prefix) {
			best, price = prefix, p
		}
	}
	return price, best != ""
}

// Cost is the dollars a usage cost at price: cached input tokens at the cached rate (when the
// provider reports them), the rest of the input and the output at theirs.
func (p Price) Cost(input, cachedInput, output int) float64 {
	cached := min(cachedInput, input)
	rate := p.CachedInput
	if rate == 0 {
		rate = p.Input
	}
	return (float64(input-cached)*p.Input + float64(cached)*rate + float64(output)*p.Output) / 1e6
}
