package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestWebSearchThroughSearXNG: with [web] search_provider = "searxng" in the user's config,
// the session offers web_search, and the model's search goes to the instance's JSON API
// (httptest on 127.0.0.1) and comes back as numbered hits. Without the config there is no
// web_search at all.
func TestWebSearchThroughSearXNG(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
			http.Error(w, "not a search", http.StatusBadRequest)
			return
		}
		mu.Lock()
		asked = append(asked, r.URL.Query().Get("q"))
		mu.Unlock()
		io.WriteString(w, `{"query":"troupe harness","results":[{"url":"https://example.org/troupe","title":"Troupe docs","content":"Actors and tools","engine":"bing"}]}`)
	}))
	defer srv.Close()
	repo := newRepo(t, nil)
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".config", "troupe"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "troupe", "config.toml"), []byte("[web]\nsearch_provider = \"searxng\"\nsearch_url = \""+srv.URL+"\"\n"), 0o644)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "web_search", "args": {"query": "troupe harness"}}]},
		{"expect": "https://example.org/troupe", "text": "Found the docs."}]}`)
	r := troupe(t, repo, append(testEnv(t), "HOME="+home), "run", "--json", "--mode", "yolo", "--model", model, "search the web")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	res := toolResults(t, envelopes(t, r.stdout))
	mu.Lock()
	defer mu.Unlock()
	if len(res) != 1 || res[0].IsError || !strings.Contains(res[0].Output, "1. Troupe docs") || len(asked) != 1 || asked[0] != "troupe harness" {
		t.Fatalf("results %+v; the instance was asked %q", res, asked)
	}

	// No search configured: the tool is not offered, so the call is an unknown tool.
	r = troupe(t, repo, testEnv(t), "run", "--json", "--mode", "yolo", "--model", writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "web_search", "args": {"query": "x"}}]}, {"text": "ok"}]}`), "search")
	res = toolResults(t, envelopes(t, r.stdout))
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Output, "web_search") {
		t.Fatalf("without a provider: %+v", res)
	}
}
