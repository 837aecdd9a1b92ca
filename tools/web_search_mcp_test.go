package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// searchCaller records the MCP calls it gets and answers them with out.
type searchCaller struct {
	calls []string
	out   string
}

func (c *searchCaller) CallMCP(_ context.Context, server, tool string, args json.RawMessage) *messages.MCPCallResult {
	c.calls = append(c.calls, server+"/"+tool+" "+string(args))
	return &messages.MCPCallResult{Server: server, Tool: tool, Output: c.out}
}

func (c *searchCaller) MCPResources(context.Context, string, string, json.RawMessage) *messages.MCPCallResult {
	return nil
}

// TestMCPSearchMapsTheToolsArguments: web_search's query and count go to the names the
// server's tool uses; a tool that cannot take a query, or needs more, cannot serve it.
func TestMCPSearchMapsTheToolsArguments(t *testing.T) {
	for _, c := range []struct {
		schema, want, err string
	}{
		{`{"type":"object","properties":{"query":{"type":"string"},"count":{"type":"integer"}},"required":["query"]}`, `{"count":2,"query":"go actors"}`, ""},
		{`{"type":"object","properties":{"q":{"type":"string"},"max_results":{"type":"number"}}}`, `{"max_results":2,"q":"go actors"}`, ""},
		{`{"type":"object","properties":{"question":{"type":"string"},"depth":{"type":"string"}},"required":["question"]}`, `{"question":"go actors"}`, ""},
		{`{"type":"object","properties":{"url":{"type":"integer"}}}`, "", "has no query argument (it takes url)"},
		{`{"type":"object","properties":{"query":{"type":"string"},"index":{"type":"string"}},"required":["query","index"]}`, "", `also requires "index"`},
		{`[1]`, "", "not a JSON object"},
	} {
		tool, err := MCPSearch(MCPToolInfo{Server: "web", Tool: "find", Schema: json.RawMessage(c.schema)})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.schema, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.schema, err)
		}
		if sp := tool.Spec(); sp.Name != "web_search" || sp.Risk != RiskNetwork || !strings.Contains(sp.Description, "find of MCP server web") {
			t.Errorf("spec %+v", sp)
		}
		caller := &searchCaller{out: "1. hit"}
		res := tool.Run(context.Background(), &Env{MCP: caller}, json.RawMessage(`{"query":" go actors ","count":2}`))
		if res.IsError || res.Output != "1. hit" || len(caller.calls) != 1 || caller.calls[0] != "web/find "+c.want {
			t.Errorf("%s: %+v, calls %q", c.schema, res, caller.calls)
		}
	}
	tool, _ := MCPSearch(MCPToolInfo{Server: "web", Tool: "find", Schema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}}}`)})
	if res := tool.Run(context.Background(), &Env{MCP: &searchCaller{}}, json.RawMessage(`{"query":"nothing"}`)); res.Output != `no results for "nothing"` {
		t.Errorf("an empty answer: %+v", res)
	}
	if res := tool.Run(context.Background(), &Env{}, json.RawMessage(`{"query":"x"}`)); !res.IsError || !strings.Contains(res.Output, "not available") {
		t.Errorf("without MCP: %+v", res)
	}
}

// TestSearchConfigCheck: mcp needs a server and a tool, and is built elsewhere.
func TestSearchConfigCheck(t *testing.T) {
	if err := (SearchConfig{Provider: "mcp", Server: "web"}).Check(); err == nil || !strings.Contains(err.Error(), "search_tool") {
		t.Errorf("no tool: %v", err)
	}
	if err := (SearchConfig{Provider: "mcp", Server: "web", Tool: "find"}).Check(); err != nil {
		t.Errorf("server and tool: %v", err)
	}
	if _, err := WebSearch(SearchConfig{Provider: "mcp", Server: "web", Tool: "find"}); err == nil {
		t.Error("WebSearch built the MCP search itself")
	}
}
