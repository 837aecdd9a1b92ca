package tools

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Other harnesses' web tools, as their tool definitions declare them, map to web_fetch (url) and
// web_search (query, count) when the session has them: Claude Code's WebFetch (url, prompt) and
// WebSearch (query, allowed_domains, blocked_domains), Gemini CLI's web_fetch (a prompt holding
// the URL) and google_web_search, opencode's webfetch and Crush's and Zed's fetch (url, format,
// timeout), Continue's fetch_url_content and search_web, Kimi CLI's FetchURL and SearchWeb,
// Goose's web_scrape, gpt-oss's browser.search (query, topn) and browser.open given a URL.
// What has no equivalent here (a prompt run over the page, several domains to keep or drop)
// is dropped only where it shapes the answer, never what is fetched or searched; otherwise the
// call is refused with the reason.

// urlInText is one http(s) URL inside a prompt.
var urlInText = lazyre.New(`https?://[^\s"'<>)\]]+`)

// fetchURL keeps the URL and drops what only shapes the answer (a prompt, a format, a timeout);
// a prompt holding exactly one URL and no url argument is that URL (Gemini CLI's web_fetch).
func fetchURL(args map[string]any) (string, string) {
	for _, k := range []string{"uri", "link", "address", "id"} {
		if v, ok := args[k].(string); ok && args["url"] == nil && strings.HasPrefix(v, "http") {
			args["url"] = v
			delete(args, k)
		}
	}
	if _, ok := args["url"]; !ok {
		prompt, _ := args["prompt"].(string)
		urls := urlInText.FindAllString(prompt, 3)
		if len(urls) != 1 {
			return "", "url is required: the one http(s) address to fetch"
		}
		args["url"] = strings.TrimRight(urls[0], ".,;:")
	}
	for _, k := range []string{"prompt", "format", "timeout", "max_length", "raw", "start_index", "cursor", "loc", "num_lines", "source"} {
		delete(args, k)
	}
	return "", ""
}

// searchQuery maps a search: its result count (topn, num_results, max_results) to count, one
// allowed domain to the query's site: filter; several domains, or blocked ones, have no
// equivalent.
func searchQuery(args map[string]any) (string, string) {
	if q, ok := args["q"]; ok && args["query"] == nil {
		args["query"] = q
		delete(args, "q")
	}
	for _, k := range []string{"topn", "num_results", "max_results", "limit"} {
		if v, ok := args[k]; ok {
			delete(args, k)
			if args["count"] == nil {
				args["count"] = v
			}
		}
	}
	if blocked, ok := listArg(args["blocked_domains"]); ok && len(blocked) > 0 {
		return "", "blocked_domains has no equivalent: search without it, or name the sites to keep in the query"
	}
	delete(args, "blocked_domains")
	if allowed, ok := listArg(args["allowed_domains"]); ok && len(allowed) > 0 {
		site, isText := allowed[0].(string)
		if len(allowed) > 1 || !isText {
			return "", "several allowed_domains have no equivalent: search one site at a time (site:example.com in the query)"
		}
		q, _ := args["query"].(string)
		args["query"] = fmt.Sprintf("site:%s %s", site, q)
	}
	delete(args, "allowed_domains")
	delete(args, "source")
	return "", ""
}
