package tools

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// searchServer answers like a provider's API after checking the request is that API's.
func searchServer(t *testing.T, provider string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bad := func(msg string) { http.Error(w, msg, http.StatusUnprocessableEntity) }
		switch provider {
		case "brave":
			if r.Method != http.MethodGet || r.URL.Path != "/res/v1/web/search" || r.URL.Query().Get("q") != "go actors" || r.URL.Query().Get("count") != "2" {
				bad("not a Brave search request: " + r.URL.String())
				return
			}
			if r.Header.Get("X-Subscription-Token") != "brave-key" {
				http.Error(w, `{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID"}}`, http.StatusUnauthorized)
				return
			}
			io.WriteString(w, `{"type":"search","query":{"original":"go actors"},"web":{"type":"search","results":[
				{"title":"Proto.Actor","url":"https://proto.actor/","description":"Cross-platform <strong>actors</strong>","page_age":"2024"},
				{"title":"Go","url":"https://go.dev/","description":"The Go language"},
				{"title":"Third","url":"https://example.com/3","description":"cut by count"}]}}`)
		case "tavily":
			var body struct {
				Query      string `json:"query"`
				MaxResults int    `json:"max_results"`
			}
			if r.Method != http.MethodPost || r.URL.Path != "/search" || json.NewDecoder(r.Body).Decode(&body) != nil || body.Query != "go actors" || body.MaxResults != 2 {
				bad("not a Tavily search request")
				return
			}
			if r.Header.Get("Authorization") != "Bearer tvly-key" {
				http.Error(w, `{"detail":{"error":"Unauthorized: missing or invalid API key."}}`, http.StatusUnauthorized)
				return
			}
			io.WriteString(w, `{"query":"go actors","answer":null,"results":[
				{"title":"Proto.Actor","url":"https://proto.actor/","content":"Cross-platform actors","score":0.9},
				{"title":"Go","url":"https://go.dev/","content":"The Go language","score":0.8}],"response_time":0.5}`)
		case "searxng":
			if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") != "go actors" {
				bad("not a SearXNG JSON search")
				return
			}
			io.WriteString(w, `{"query":"go actors","number_of_results":0,"results":[
				{"url":"https://proto.actor/","title":"Proto.Actor","content":"Cross-platform actors","engine":"duckduckgo"},
				{"url":"https://go.dev/","title":"Go","content":"The Go language","engine":"bing"}],"answers":[],"suggestions":[]}`)
		case "html":
			io.WriteString(w, "<html><body>login</body></html>")
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func runSearch(t *testing.T, cfg SearchConfig, args string) Result {
	t.Helper()
	tool, err := WebSearch(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := NewRegistry(tool)
	if err != nil {
		t.Fatal(err)
	}
	return reg.Execute(context.Background(), newEnv(t), Call{ID: "s1", Name: "web_search", Args: args})
}

// TestWebSearchSpeaksEachProvidersAPI: the same search through Brave's, Tavily's and SearXNG's
// real request and answer shapes gives the same numbered hits.
func TestWebSearchSpeaksEachProvidersAPI(t *testing.T) {
	for _, tc := range []struct{ provider, path, key string }{
		{"brave", "/res/v1/web/search", "brave-key"}, {"tavily", "/search", "tvly-key"}, {"searxng", "", ""},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			srv := searchServer(t, tc.provider)
			res := runSearch(t, SearchConfig{Provider: tc.provider, URL: srv.URL + tc.path, Key: tc.key, KeyEnv: "KEY_VAR"}, `{"query":"go actors","count":2}`)
			if res.IsError {
				t.Fatal(res.Output)
			}
			mustContain(t, res.Output, "1. Proto.Actor\n   https://proto.actor/\n   Cross-platform", "2. Go\n   https://go.dev/\n   The Go language")
			if strings.Contains(res.Output, "Third") {
				t.Fatalf("more hits than asked: %s", res.Output)
			}
		})
	}
}

func TestWebSearchFailuresAreOneLine(t *testing.T) {
	brave := searchServer(t, "brave")
	res := runSearch(t, SearchConfig{Provider: "brave", URL: brave.URL + "/res/v1/web/search", Key: "wrong", KeyEnv: "BRAVE_API_KEY"}, `{"query":"go actors","count":2}`)
	mustFail(t, res, "brave answered 401", "check the key in $BRAVE_API_KEY")
	if strings.Contains(res.Output, "wrong") {
		t.Fatal("the key was shown")
	}
	html := searchServer(t, "html")
	mustFail(t, runSearch(t, SearchConfig{Provider: "searxng", URL: html.URL}, `{"query":"x"}`), "is not its search JSON", "search_url")
	for _, cfg := range []SearchConfig{{Provider: "brave", KeyEnv: "BRAVE_API_KEY"}, {Provider: "searxng"}, {Provider: "bing"}} {
		if _, err := WebSearch(cfg); err == nil {
			t.Errorf("%+v was accepted", cfg)
		}
	}
}
