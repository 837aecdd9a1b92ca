package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/messages"
)

// mcp_resources and mcp_read_resource read the resources of the MCP servers that offer them.
// Contract:
//   - Offered only when at least one ready server declared the resources capability; the
//     server argument is an enum of those servers.
//   - mcp_resources lists one server's resources (or every such server's), one per line:
//     "uri — name (mime): description"; mcp_read_resource reads one by uri: text as it is,
//     images attached like read_file's, other binary content named.
//   - Risk read: resources are data the server exposes to be read. Permission patterns name
//     the tools (mcp_read_resource) like any other.
//   - Each goes to the server's actor by message (Env.MCP), bounded by the server's timeout;
//     failures are results.

// MCPResourceTools are the two resource tools for servers, none when servers is empty.
func MCPResourceTools(servers []string) []Tool {
	if len(servers) == 0 {
		return nil
	}
	servers = slices.Clone(servers)
	slices.Sort(servers)
	enum, _ := json.Marshal(servers)
	return []Tool{
		mcpResources{servers: servers, spec: Spec{Name: "mcp_resources", Risk: RiskRead,
			Description: "List the resources (files, records, documents) MCP servers offer, one per line with its uri. Servers: " + strings.Join(servers, ", ") + ". Read one with mcp_read_resource.",
			Schema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","enum":` + string(enum) +
				`,"description":"only this server (default: every server that offers resources)"}},"additionalProperties":false}`)}},
		mcpReadResource{spec: Spec{Name: "mcp_read_resource", Risk: RiskRead,
			Description: "Read one resource of an MCP server by its uri (from mcp_resources).",
			Schema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","enum":` + string(enum) + `},` +
				`"uri":{"type":"string","description":"the resource's uri, as mcp_resources lists it"}},"required":["server","uri"],"additionalProperties":false}`)}},
	}
}

type mcpResources struct {
	servers []string
	spec    Spec
}

func (t mcpResources) Spec() Spec { return t.spec }

func (t mcpResources) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a struct {
		Server string `json:"server"`
	}
	if bad := decodeArgs(t.spec.Name, raw, &a); bad != nil {
		return *bad
	}
	if env.MCP == nil {
		return errorResult("mcp_resources: MCP servers are not available in this session")
	}
	servers := t.servers
	if a.Server != "" {
		servers = []string{a.Server}
	}
	var out []string
	failed := 0
	for _, s := range servers {
		r := env.MCP.MCPResources(ctx, messages.MCPOpListResources, s, nil)
		if r.IsError {
			failed++
		}
		out = append(out, fmt.Sprintf("## %s\n%s", s, r.Output))
	}
	return Result{Output: strings.Join(out, "\n\n"), IsError: failed == len(servers)}
}

type mcpReadResource struct{ spec Spec }

func (t mcpReadResource) Spec() Spec { return t.spec }

func (t mcpReadResource) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	if bad := decodeArgs(t.spec.Name, raw, &a); bad != nil {
		return *bad
	}
	if env.MCP == nil {
		return errorResult("mcp_read_resource: MCP servers are not available in this session")
	}
	args, _ := json.Marshal(map[string]string{"uri": a.URI})
	return mcpResult(env, env.MCP.MCPResources(ctx, messages.MCPOpReadResource, a.Server, args))
}
