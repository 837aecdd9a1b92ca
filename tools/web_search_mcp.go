package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// web_search served by an MCP server's search tool ([web] search_provider = "mcp", with
// search_server and search_tool; docs/CONFIG.md). Contract, beyond web_search's own:
//   - Built from the tool as the server lists it: the query goes to the tool's query argument
//     (the first of mcpQueryArgs it has, else its one required string argument) and count to
//     its count argument when it has one of mcpCountArgs. A tool with no query argument, or
//     with other required arguments, cannot serve web_search: MCPSearch fails and the caller
//     warns.
//   - The call is the server's like any mcp__ call (Env.MCP, the server's actor by message,
//     its timeout and restarts); the result is the tool's text (and images) as it sent it.
//   - Risk network, permission patterns on web_search: the user chose this tool as the
//     search, so its own mcp__ name is not asked about again.

// Argument names search tools use for the query and the hit count, in order of preference.
var (
	mcpQueryArgs = []string{"query", "q", "search_query", "searchQuery", "search", "term", "keywords", "text"}
	mcpCountArgs = []string{"count", "max_results", "maxResults", "num_results", "numResults", "limit", "top_k", "topK", "n"}
)

type mcpSearch struct {
	server, tool    string
	queryArg, count string
	spec            Spec
}

// MCPSearch is web_search through info, the configured server's search tool, or an error
// saying why that tool cannot serve it.
func MCPSearch(info MCPToolInfo) (Tool, error) {
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(info.Schema, &schema); err != nil {
		return nil, fmt.Errorf("web_search: tool %s of mcp server %s: its input schema is not a JSON object: %v", info.Tool, info.Server, err)
	}
	typed := func(name, want string) bool {
		p, ok := schema.Properties[name]
		if !ok {
			return false
		}
		switch t := p.Type.(type) {
		case nil:
			return true
		case string:
			return t == want || want == "integer" && t == "number"
		case []any:
			return slices.Contains(t, any(want))
		}
		return false
	}
	s := &mcpSearch{server: info.Server, tool: info.Tool}
	for _, name := range mcpQueryArgs {
		if typed(name, "string") {
			s.queryArg = name
			break
		}
	}
	if s.queryArg == "" {
		var strs []string
		for _, name := range schema.Required {
			if typed(name, "string") {
				strs = append(strs, name)
			}
		}
		if len(strs) == 1 {
			s.queryArg = strs[0]
		}
	}
	if s.queryArg == "" {
		return nil, fmt.Errorf("web_search: tool %s of mcp server %s has no query argument (it takes %s); set search_tool to the server's search tool",
			info.Tool, info.Server, strings.Join(slices.Sorted(maps.Keys(schema.Properties)), ", "))
	}
	for _, name := range mcpCountArgs {
		if typed(name, "integer") {
			s.count = name
			break
		}
	}
	for _, name := range schema.Required {
		if name != s.queryArg && name != s.count {
			return nil, fmt.Errorf("web_search: tool %s of mcp server %s also requires %q, which web_search cannot fill", info.Tool, info.Server, name)
		}
	}
	s.spec = webSearchSpec(fmt.Sprintf("Search the web (through %s of MCP server %s); returns the hits as the server writes them. Read a hit with web_fetch.", info.Tool, info.Server))
	return s, nil
}

func (s *mcpSearch) Spec() Spec { return s.spec }

func (s *mcpSearch) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a struct {
		Query string `json:"query"`
		Count int    `json:"count"`
	}
	if bad := decodeArgs("web_search", raw, &a); bad != nil {
		return *bad
	}
	if env.MCP == nil {
		return errorResult(fmt.Sprintf("web_search: MCP server %s is not available in this session", s.server))
	}
	args := map[string]any{s.queryArg: strings.TrimSpace(a.Query)}
	if s.count != "" {
		args[s.count] = min(orDefault(a.Count, webSearchDefault), webSearchMax)
	}
	body, _ := json.Marshal(args)
	res := mcpResult(env, env.MCP.CallMCP(ctx, s.server, s.tool, body))
	if res.IsError {
		res.Output = fmt.Sprintf("web_search (mcp server %s, tool %s): %s", s.server, s.tool, res.Output)
	} else if strings.TrimSpace(res.Output) == "" && len(res.Images) == 0 {
		res.Output = fmt.Sprintf("no results for %q", a.Query)
	}
	return res
}

// BrokenSearch is web_search configured through an MCP server that cannot serve it: every
// call is an error result saying why.
func BrokenSearch(why string) Tool { return brokenSearch(why) }

type brokenSearch string

func (b brokenSearch) Spec() Spec {
	return webSearchSpec("Search the web. (Not working now: " + string(b) + ")")
}

func (b brokenSearch) Run(context.Context, *Env, json.RawMessage) Result {
	return errorResult(string(b))
}
