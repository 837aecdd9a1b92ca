package main

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/internal/mcptest"
)

// TestMCPResourcesThroughTheReferenceServer: the reference server offers resources, so the
// session gets mcp_resources and mcp_read_resource; through the real binary the model lists
// them and reads one document by its uri.
func TestMCPResourcesThroughTheReferenceServer(t *testing.T) {
	node, script := mcptest.Reference(t, "server-everything")
	repo := newRepo(t, nil)
	writeMCPJSON(t, repo, map[string]any{"everything": map[string]any{"command": node, "args": []string{script, "stdio"}}})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "mcp_resources", "args": {}}]},
		{"expect": "demo://resource/static/document/features.md", "tool_calls": [{"name": "mcp_read_resource", "args": {"server": "everything", "uri": "demo://resource/static/document/features.md"}}]},
		{"expect": "toggle-simulated-logging", "text": "Read the features document."}]}`)
	home := trustedHome(t, repo)
	r := troupe(t, repo, append(testEnv(t), "HOME="+home), "run", "--json", "--model", model, "read the server's docs")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	res := toolResults(t, envelopes(t, r.stdout))
	if len(res) != 2 || res[0].IsError || res[1].IsError {
		t.Fatalf("results: %+v", res)
	}
	if !strings.Contains(res[0].Output, "## everything") || !strings.Contains(res[1].Output, "Everything Server - Features") {
		t.Fatalf("results: %q / %q", res[0].Output, res[1].Output)
	}
}
