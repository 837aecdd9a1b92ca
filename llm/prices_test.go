package llm

import (
	"math"
	"testing"
)

func TestPriceOfAndCost(t *testing.T) {
	p, ok := PriceOf("openrouter/openai/gpt-4o-mini-2024-07-18")
	if !ok || p.Input != 0.15 {
		t.Fatalf("gpt-4o-mini: %+v %v (the longest prefix must win over gpt-4o)", p, ok)
	}
	// 1M input of which 400k cached, 100k output.
	if got, want := p.Cost(1_000_000, 400_000, 100_000), 0.6*0.15+0.4*0.075+0.1*0.60; math.Abs(got-want) > 1e-9 {
		t.Errorf("cost %.6f, want %.6f", got, want)
	}
	if _, ok := PriceOf("ollama/qwen2.5-coder:7b"); !ok {
		t.Error("a local model must cost nothing, not be unknown")
	}
	if _, ok := PriceOf("openai/my-finetune"); ok {
		t.Error("an unknown model got a guessed price")
	}
}
