package llm

import (
	"slices"
	"testing"
)

func TestKnownModels(t *testing.T) {
	env := func(vals map[string]string) func(string) string { return func(k string) string { return vals[k] } }
	cases := []struct {
		name    string
		env     map[string]string
		current string
		want    []string // must be in the list
		notWant []string // must not be
		first   string
	}{
		{name: "a key configures its provider", env: map[string]string{"ANTHROPIC_API_KEY": "k"}, current: "anthropic/claude-sonnet-4-5",
			want: []string{"anthropic/claude-sonnet-4-5", "anthropic/claude-haiku-4-5"}, notWant: []string{"openai/gpt-4o"}},
		{name: "the current provider counts without a key", env: nil, current: "openai/gpt-4o-mini",
			want: []string{"openai/gpt-4o-mini", "openai/gpt-5"}, notWant: []string{"gemini/gemini-2.5-pro"}},
		{name: "either gemini key", env: map[string]string{"GOOGLE_API_KEY": "k"}, current: "scripted:x.json",
			want: []string{"gemini/gemini-2.5-flash", "scripted:x.json"}, first: "scripted:x.json"},
		{name: "a local model is listed as itself", env: nil, current: "ollama/qwen3:8b",
			want: []string{"ollama/qwen3:8b"}, notWant: []string{"openai/gpt-5"}, first: "ollama/qwen3:8b"},
		{name: "a blank key is no key", env: map[string]string{"OPENAI_API_KEY": "  "}, current: "",
			notWant: []string{"openai/gpt-5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := KnownModels(env(c.env), c.current)
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %s in %v", w, got)
				}
			}
			for _, w := range c.notWant {
				if slices.Contains(got, w) {
					t.Errorf("unexpected %s in %v", w, got)
				}
			}
			if c.first != "" && (len(got) == 0 || got[0] != c.first) {
				t.Errorf("first = %v, want %s", got, c.first)
			}
		})
	}
	for p := range catalog {
		if _, ok := routes[p]; !ok {
			t.Errorf("catalog provider %s has no route", p)
		}
	}
}
