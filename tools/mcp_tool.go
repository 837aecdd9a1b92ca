package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// An MCP tool is a tool of an MCP server offered to the model as mcp__<server>__<tool>.
// Contract:
//   - Its schema is the server's input schema as the server sent it; arguments are validated
//     against it like any tool's. A schema our validator cannot compile leaves the tool out
//     (NewMCPTool fails; the caller warns and offers the server's other tools).
//   - Risk: read when the server marks the tool readOnlyHint; otherwise the server's
//     configured risk, exec by default. Permission patterns match the name (mcp__github__*).
//   - Run asks Env.MCP, the Node's actor for that server, by message. Per-call timeout,
//     restarts and the server's failures are the actor's; each comes back as an error
//     Result, never a Go error. The lifecycle bounds the result and keeps an over-budget one
//     as an artifact (read_artifact pages through it).
//   - Name repair never maps an mcp__ name onto another tool (toolnames.go).

// MCPCaller calls a tool of a configured MCP server; Env.MCP holds the session's.
type MCPCaller interface {
	CallMCP(ctx context.Context, server, tool string, args json.RawMessage) Result
}

// MCPToolInfo is one tool an MCP server offers.
type MCPToolInfo struct {
	Server, Tool, Description string
	Schema                    json.RawMessage
	ReadOnly                  bool
	// Risk is the server's configured risk for tools not marked read-only; "" means exec.
	Risk Risk
}

type mcpTool struct {
	info MCPToolInfo
	spec Spec
}

// NewMCPTool makes the tool for info, failing when its schema cannot be compiled.
func NewMCPTool(info MCPToolInfo) (Tool, error) {
	name := MCPToolName(info.Server, info.Tool)
	if _, err := compileArgsSchema(name, info.Schema); err != nil {
		return nil, fmt.Errorf("mcp tool %s of server %s: %w", info.Tool, info.Server, err)
	}
	risk := info.Risk
	if risk == "" {
		risk = RiskExec
	}
	if info.ReadOnly {
		risk = RiskRead
	}
	desc := info.Description
	if desc == "" {
		desc = fmt.Sprintf("Tool %s of MCP server %s.", info.Tool, info.Server)
	}
	return &mcpTool{info: info, spec: Spec{Name: name, Description: desc, Schema: info.Schema, Risk: risk}}, nil
}

func (t *mcpTool) Spec() Spec { return t.spec }

func (t *mcpTool) Run(ctx context.Context, env *Env, args json.RawMessage) Result {
	if env.MCP == nil {
		return errorResult(fmt.Sprintf("%s: MCP servers are not available in this session", t.spec.Name))
	}
	return env.MCP.CallMCP(ctx, t.info.Server, t.info.Tool, args)
}

var notInName = lazyre.New(`[^a-zA-Z0-9_-]`)

// MCPToolName is the name a server's tool is offered under: mcp__<server>__<tool>, with
// characters providers refuse replaced by _ and, past 64 characters, cut and ended with a
// short hash of the whole so two long names stay apart.
func MCPToolName(server, tool string) string {
	name := notInName.ReplaceAllString("mcp__"+server+"__"+tool, "_")
	if len(name) <= 64 {
		return name
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	return name[:55] + "_" + hex.EncodeToString(sum[:4])
}
