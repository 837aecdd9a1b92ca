package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// web_search searches the web through the provider the user configured ([web] search_provider):
// Brave Search, Tavily or a SearXNG instance, each over its own HTTP API, or an MCP server's
// search tool (web_search_mcp.go). Contract:
//   - Offered only when a provider is configured (and, for Brave and Tavily, its key variable
//     is set); absent otherwise.
//   - Risk network: ask mode asks before a search (allow it for the session or with a
//     web_search pattern). The endpoint is the user's, so it may be on this machine (a local
//     SearXNG); unlike web_fetch no address is refused.
//   - The result is the hits, numbered: title, URL, snippet, at most count (default 8, max
//     20); the model reads a page with web_fetch. Bounded in time (20 s) and size (2 MB read).
//   - Failures are results saying what went wrong in one line (a refused key, a server error,
//     an answer that is not the provider's JSON).

// SearchConfig is a configured search provider.
type SearchConfig struct {
	Provider string // "brave", "tavily", "searxng" or "mcp"
	URL      string // the API endpoint; "" is the provider's public one (required for searxng)
	Key      string // the API key (Brave, Tavily); never shown in a result
	KeyEnv   string // the variable the key came from, for the error that names it
	Server   string // with "mcp": the MCP server whose tool serves web_search
	Tool     string // with "mcp": that tool's name on the server
}

// ViaMCP says whether an MCP server's tool serves web_search: the tool is then built from the
// server's tool list (MCPSearch), not by WebSearch.
func (c SearchConfig) ViaMCP() bool { return c.Provider == "mcp" }

// Check says what is missing for web_search to work, or nil.
func (c SearchConfig) Check() error {
	if c.ViaMCP() {
		if c.Server == "" || c.Tool == "" {
			return fmt.Errorf("web_search: search_provider mcp needs [web] search_server and search_tool (the MCP server and its search tool)")
		}
		return nil
	}
	_, err := WebSearch(c)
	return err
}

// The providers' public endpoints.
var searchEndpoints = map[string]string{
	"brave":  "https://api.search.brave.com/res/v1/web/search",
	"tavily": "https://api.tavily.com/search",
}

const (
	webSearchTimeout  = 20 * time.Second
	webSearchMaxBytes = 2 << 20
	webSearchDefault  = 8
	webSearchMax      = 20
)

type webSearch struct {
	cfg    SearchConfig
	client *http.Client
}

// WebSearch is the web_search tool for cfg, or an error saying what is missing.
func WebSearch(cfg SearchConfig) (Tool, error) {
	switch cfg.Provider {
	case "brave", "tavily":
		if cfg.Key == "" {
			return nil, fmt.Errorf("web_search: %s needs an API key in $%s", cfg.Provider, cfg.KeyEnv)
		}
	case "searxng":
		if cfg.URL == "" {
			return nil, fmt.Errorf("web_search: searxng needs [web] search_url, the instance's address such as http://localhost:8888")
		}
	case "mcp":
		return nil, fmt.Errorf("web_search: through MCP server %s, it is built from the server's tool list", cfg.Server)
	case "":
		return nil, fmt.Errorf("web_search: [web] search_provider is not set (brave, tavily, searxng or mcp)")
	default:
		return nil, fmt.Errorf("web_search: unknown search_provider %q (brave, tavily, searxng or mcp)", cfg.Provider)
	}
	if cfg.URL == "" {
		cfg.URL = searchEndpoints[cfg.Provider]
	}
	return &webSearch{cfg: cfg, client: &http.Client{Timeout: webSearchTimeout}}, nil
}

func (w *webSearch) Spec() Spec {
	return webSearchSpec("Search the web; returns numbered hits (title, URL, snippet). Read a hit with web_fetch.")
}

// webSearchSpec is web_search's spec, whichever provider serves it.
func webSearchSpec(description string) Spec {
	return Spec{
		Name:        "web_search",
		Description: description,
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"query":{"type":"string","minLength":1,"description":"what to search for"},` +
			`"count":{"type":"integer","minimum":1,"maximum":20,"description":"hits wanted (default 8)"}},` +
			`"required":["query"],"additionalProperties":false}`),
		Risk:           RiskNetwork,
		MaxResultBytes: 24 << 10,
	}
}

// searchHit is one hit as every provider's answer is read.
type searchHit struct{ Title, URL, Snippet string }

func (w *webSearch) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a struct {
		Query string `json:"query"`
		Count int    `json:"count"`
	}
	if bad := decodeArgs("web_search", raw, &a); bad != nil {
		return *bad
	}
	count := min(orDefault(a.Count, webSearchDefault), webSearchMax)
	req, err := w.request(ctx, strings.TrimSpace(a.Query), count)
	if err != nil {
		return errorResult(fmt.Sprintf("web_search: %v", err))
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return errorResult(fmt.Sprintf("web_search (%s): %v", w.cfg.Provider, err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, webSearchMaxBytes))
	if err != nil {
		return errorResult(fmt.Sprintf("web_search (%s): reading the answer: %v", w.cfg.Provider, err))
	}
	if resp.StatusCode != http.StatusOK {
		msg := fmt.Sprintf("web_search: %s answered %s: %s", w.cfg.Provider, resp.Status, textfmt.ClipLine(string(body), 200))
		if (resp.StatusCode == 401 || resp.StatusCode == 403) && w.cfg.KeyEnv != "" {
			msg += fmt.Sprintf(" (check the key in $%s)", w.cfg.KeyEnv)
		}
		return errorResult(msg)
	}
	hits, err := w.hits(body)
	if err != nil {
		return errorResult(fmt.Sprintf("web_search: %s's answer is not its search JSON (%v); is search_url the API's address?", w.cfg.Provider, err))
	}
	if len(hits) > count {
		hits = hits[:count]
	}
	if len(hits) == 0 {
		return Result{Output: fmt.Sprintf("no results for %q", a.Query)}
	}
	var b strings.Builder
	for i, h := range hits {
		fmt.Fprintf(&b, "%d. %s\n   %s\n", i+1, strings.TrimSpace(h.Title), h.URL)
		if s := strings.Join(strings.Fields(h.Snippet), " "); s != "" {
			fmt.Fprintf(&b, "   %s\n", textfmt.Clip(s, 400))
		}
	}
	return Result{Output: strings.TrimRight(b.String(), "\n")}
}

// request is the provider's own search request.
func (w *webSearch) request(ctx context.Context, query string, count int) (*http.Request, error) {
	var req *http.Request
	var err error
	switch w.cfg.Provider {
	case "brave":
		q := url.Values{"q": {query}, "count": {fmt.Sprint(count)}}
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, w.cfg.URL+"?"+q.Encode(), nil)
		if err == nil {
			req.Header.Set("X-Subscription-Token", w.cfg.Key)
		}
	case "tavily":
		body, _ := json.Marshal(map[string]any{"query": query, "max_results": count})
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, w.cfg.URL, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+w.cfg.Key)
		}
	case "searxng":
		q := url.Values{"q": {query}, "format": {"json"}}
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(w.cfg.URL, "/")+"/search?"+q.Encode(), nil)
	}
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "troupe-web-search/1")
	return req, nil
}

// hits reads the provider's answer: Brave's web.results (description), Tavily's and SearXNG's
// results (content).
func (w *webSearch) hits(body []byte) ([]searchHit, error) {
	type hit struct {
		Title       string `json:"title"`
		URL         string `json:"url"`
		Description string `json:"description"`
		Content     string `json:"content"`
	}
	var ans struct {
		Web *struct {
			Results []hit `json:"results"`
		} `json:"web"`
		Results []hit `json:"results"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return nil, err
	}
	list := ans.Results
	if w.cfg.Provider == "brave" {
		if ans.Web == nil {
			return nil, nil // Brave leaves web out when nothing was found
		}
		list = ans.Web.Results
	}
	out := make([]searchHit, 0, len(list))
	for _, h := range list {
		if h.URL == "" {
			continue
		}
		out = append(out, searchHit{Title: h.Title, URL: h.URL, Snippet: h.Description + h.Content})
	}
	return out, nil
}
