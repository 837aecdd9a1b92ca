package llm

import (
	"context"
	"fmt"
	"slices"

	"github.com/anthropics/anthropic-sdk-go"
)

// Prober is a Provider that can check its endpoint and key without a model call (troupe
// doctor): it lists the endpoint's models, which every OpenAI-compatible server and Anthropic
// answer for free.
type Prober interface {
	Probe(ctx context.Context, model string) (string, error)
}

// Probe checks p's endpoint: a line saying what answered, or the classified error. A provider
// with no probe says so without failing.
func Probe(ctx context.Context, p Provider, model string) (string, error) {
	pr, ok := p.(Prober)
	if !ok {
		return "no endpoint probe for this provider; a run will tell", nil
	}
	return pr.Probe(ctx, model)
}

// ProviderVars lists every environment variable a provider reads (its keys, and OLLAMA_HOST for
// a local ollama): what a client hands a node in another process with each session start.
func ProviderVars() []string { return append(KeyVars(), "OLLAMA_HOST") }

// KeyVars lists the environment variables troupe reads provider keys from, for doctor and for
// keeping their values out of tool results.
func KeyVars() []string {
	var out []string
	for _, r := range routes {
		out = append(out, r.keyVars...)
	}
	slices.Sort(out)
	return out
}

func (p *openAIProvider) Probe(ctx context.Context, model string) (string, error) {
	ids, err := p.client.Models(ctx)
	if err != nil {
		return "", p.classify(err)
	}
	return modelsLine(ids, model), nil
}

func (p *anthropicProvider) Probe(ctx context.Context, model string) (string, error) {
	page, err := p.client.Models.List(ctx, anthropic.ModelListParams{})
	if err != nil {
		return "", ClassifyErr("anthropic", err)
	}
	ids := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		ids = append(ids, m.ID)
	}
	return modelsLine(ids, model), nil
}

// modelsLine says how many models answered and whether the one asked for is among them
// (servers that list only what is loaded, or nothing, are common: not listed is no failure).
func modelsLine(ids []string, model string) string {
	line := fmt.Sprintf("the endpoint answers with %d models", len(ids))
	if len(ids) == 1 {
		line = "the endpoint answers with 1 model"
	}
	switch {
	case model == "":
	case slices.Contains(ids, model):
		line += "; " + model + " is among them"
	case len(ids) > 0:
		line += "; " + model + " is not listed (it may still work: some servers list only what is loaded)"
	}
	return line
}
