package tools

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// Other harnesses' web tools map to web_fetch and web_search when the session has them
// (aliases_web.go), still ask before the network outside yolo, and are refused with the reason
// when the session has no web tools.
func TestWebToolNames(t *testing.T) {
	ws, err := WebSearch(SearchConfig{Provider: "brave", Key: "k", KeyEnv: "K"})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := NewRegistry(append(Builtins(), WebFetch(nil), ws)...)
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Root: t.TempDir()}
	cases := []struct{ name, args, tool, want string }{
		{"WebFetch", `{"url":"https://go.dev/doc","prompt":"summarize it"}`, "web_fetch", `{"url":"https://go.dev/doc"}`},
		{"web_fetch", `{"prompt":"Summarize https://go.dev/doc."}`, "web_fetch", `{"url":"https://go.dev/doc"}`},
		{"webfetch", `{"url":"https://go.dev","format":"markdown","timeout":30}`, "web_fetch", `{"url":"https://go.dev"}`},
		{"fetch", `{"url":"https://go.dev","max_length":5000}`, "web_fetch", `{"url":"https://go.dev"}`},
		{"FetchURL", `{"url":"https://go.dev"}`, "web_fetch", `{"url":"https://go.dev"}`},
		{"browser.open", `{"id":"https://go.dev","cursor":-1}`, "web_fetch", `{"url":"https://go.dev"}`},
		{"WebSearch", `{"query":"generics","allowed_domains":["go.dev"]}`, "web_search", `{"query":"site:go.dev generics"}`},
		{"google_web_search", `{"query":"generics"}`, "web_search", `{"query":"generics"}`},
		{"browser.search", `{"query":"generics","topn":5,"source":"news"}`, "web_search", `{"count":5,"query":"generics"}`},
		{"SearchWeb", `{"query":"generics","limit":3}`, "web_search", `{"count":3,"query":"generics"}`},
		// no equivalent: refused with the reason
		{"browser.open", `{"id":3}`, "", "url is required"},
		{"web_fetch", `{"prompt":"compare https://a.org and https://b.org"}`, "", "missing required property 'url'"},
		{"WebSearch", `{"query":"x","blocked_domains":["a.com"]}`, "", "blocked_domains has no equivalent"},
		{"WebSearch", `{"query":"x","allowed_domains":["a.com","b.com"]}`, "", "several allowed_domains"},
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		switch {
		case tc.tool == "" && !strings.Contains(a.Refusal, tc.want):
			t.Errorf("%s %s: got %s %s (refusal %q), want refused with %q", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.want)
		case tc.tool != "" && (a.Name != tc.tool || string(a.Args) != tc.want):
			t.Errorf("%s %s: got %s %s (refusal %q), want %s %s", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.tool, tc.want)
		case tc.tool != "":
			if d, _ := (&Policy{Mode: messages.ModeAutoEdit}).Decide(reg.byName[a.Name].spec, a.Args, nil); d != Ask {
				t.Errorf("%s → %s in auto-edit mode: %v, want ask (network)", tc.name, a.Name, d)
			}
		}
	}
	plain := builtinRegistry(t)
	if a := plain.Admit(env, Call{ID: "1", Name: "WebFetch", Args: `{"url":"https://go.dev"}`}); !strings.Contains(a.Refusal, "does not have") {
		t.Errorf("WebFetch without web tools: %q, want a refusal saying the session has no web_fetch", a.Refusal)
	}
}
