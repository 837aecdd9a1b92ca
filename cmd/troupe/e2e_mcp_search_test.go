package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/internal/mcptest"
)

// TestWebSearchThroughAnMCPServer: with [web] search_provider = "mcp" naming the fault
// server's search tool, the model's web_search goes to that tool (its query and max_results
// arguments) and comes back as the server's hits. With a search_tool the server lacks, a
// web_search call is one line naming the tools it has and the key to fix.
func TestWebSearchThroughAnMCPServer(t *testing.T) {
	repo := newRepo(t, nil)
	writeMCPJSON(t, repo, map[string]any{"t": map[string]any{"command": mcptest.Binary(t), "env": map[string]string{mcptest.Variable: mcptest.ModeTools}}})
	home := trustedHome(t, repo)
	userConfig := filepath.Join(home, ".config", "troupe", "config.toml")
	trust, _ := os.ReadFile(userConfig)
	setSearch := func(tool string) {
		os.WriteFile(userConfig, append(trust, []byte("[web]\nsearch_provider = \"mcp\"\nsearch_server = \"t\"\nsearch_tool = \""+tool+"\"\n")...), 0o644)
	}
	setSearch("search")
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "web_search", "args": {"query": "actor harness", "count": 2}}]},
		{"expect": "2. actor harness, hit 2", "text": "Found two."}]}`)
	r := troupe(t, repo, append(testEnv(t), "HOME="+home), "run", "--json", "--mode", "yolo", "--model", model, "search the web")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	res := toolResults(t, envelopes(t, r.stdout))
	if len(res) != 1 || res[0].IsError || !strings.Contains(res[0].Output, "1. actor harness, hit 1") || strings.Contains(res[0].Output, "hit 3") {
		t.Fatalf("results %+v\n%s", res, r.stderr)
	}

	setSearch("nope")
	model = writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "web_search", "args": {"query": "x"}}]}, {"text": "ok"}]}`)
	r = troupe(t, repo, append(testEnv(t), "HOME="+home), "run", "--json", "--mode", "yolo", "--model", model, "search")
	if res := toolResults(t, envelopes(t, r.stdout)); len(res) != 1 || !res[0].IsError ||
		res[0].Output != `web_search: mcp server t has no tool "nope" (it has bad_schema, big, crash, echo, grow, search, sleep); fix [web] search_tool in your config` {
		t.Fatalf("with a tool the server lacks: %+v\n%s", res[0], r.stderr)
	}
}
