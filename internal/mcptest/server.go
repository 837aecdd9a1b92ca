// Package mcptest is an MCP server built on the official SDK for tests of the fault cases the
// reference servers cannot show: a crash during initialize, an invalid schema, an answer after
// the timeout, a 50 MB result, a crash during a call, a tool list that changes. A test binary
// becomes the server when ServeIfAsked finds its variable set (call it first in TestMain); the
// test starts os.Args[0] with Env(mode) as the server's command.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Variable is the environment variable that turns a test binary into the server.
const Variable = "TROUPE_MCPTEST_SERVER"

// The modes.
const (
	ModeTools     = "tools"      // every tool below
	ModeCrashInit = "crash-init" // says why on stderr and exits before answering initialize
)

// Env is the environment entry that asks for mode.
func Env(mode string) string { return Variable + "=" + mode }

// ServeIfAsked serves MCP on stdin/stdout and exits when the variable asks for it; otherwise it
// returns at once.
func ServeIfAsked() {
	mode := os.Getenv(Variable)
	if mode == "" {
		return
	}
	if mode == ModeCrashInit {
		fmt.Fprintln(os.Stderr, "fatal: cannot read /nonexistent/config.json")
		os.Exit(3)
	}
	if err := NewServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcptest:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func obj(props string, required ...string) map[string]any {
	m := map[string]any{"type": "object", "properties": map[string]any{}}
	for _, p := range strings.Split(props, ",") {
		if name, typ, ok := strings.Cut(p, ":"); ok {
			m["properties"].(map[string]any)[name] = map[string]any{"type": typ}
		}
	}
	if len(required) > 0 {
		m["required"] = required
	}
	return m
}

func arg[T any](req *mcp.CallToolRequest, name string) T {
	var zero T
	var args map[string]any
	_ = json.Unmarshal(req.Params.Arguments, &args)
	if v, ok := args[name].(T); ok {
		return v
	}
	return zero
}

// NewServer is the test server with every tool.
func NewServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo msg back.", InputSchema: obj("msg:string", "msg"),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("echo: " + arg[string](req, "msg")), nil
		})
	s.AddTool(&mcp.Tool{Name: "search", Description: "Search the test web: max_results numbered hits for query.",
		InputSchema: obj("query:string,max_results:integer", "query"), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			q, n := arg[string](req, "query"), int(arg[float64](req, "max_results"))
			if n == 0 {
				n = 3
			}
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "%d. %s, hit %d\n   https://example.org/%d?q=%s\n", i+1, q, i+1, i+1, url.QueryEscape(q))
			}
			return text(b.String()), nil
		})
	s.AddTool(&mcp.Tool{Name: "sleep", Description: "Answer after ms milliseconds, whatever happens.", InputSchema: obj("ms:number", "ms")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			time.Sleep(time.Duration(arg[float64](req, "ms")) * time.Millisecond)
			return text("slept"), nil
		})
	s.AddTool(&mcp.Tool{Name: "big", Description: "Return mb megabytes of text.", InputSchema: obj("mb:number", "mb")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			line := strings.Repeat("x", 99) + "\n"
			return text("BEGIN\n" + strings.Repeat(line, int(arg[float64](req, "mb")*(1<<20)/100)) + "END\n"), nil
		})
	s.AddTool(&mcp.Tool{Name: "crash", Description: "Exit the server mid-call.", InputSchema: obj("")},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(7)
			return nil, nil
		})
	bad := obj("x:string")
	bad["properties"].(map[string]any)["x"] = map[string]any{"$ref": "#/$defs/missing"}
	s.AddTool(&mcp.Tool{Name: "bad_schema", Description: "A schema that cannot be compiled.", InputSchema: bad},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("unreachable"), nil
		})
	s.AddTool(&mcp.Tool{Name: "grow", Description: "Add the tool and the prompt grown (both lists change).", InputSchema: obj("")},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddTool(&mcp.Tool{Name: "grown", Description: "Added by grow.", InputSchema: obj("")},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("grown"), nil })
			s.AddPrompt(&mcp.Prompt{Name: "grown", Description: "Added by grow."},
				func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
					return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "GROWN-PROMPT"}}}}, nil
				})
			return text("grew"), nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "review", Description: "Review a piece of code.",
		Arguments: []*mcp.PromptArgument{{Name: "code", Required: true}, {Name: "language"}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			code, lang := req.Params.Arguments["code"], req.Params.Arguments["language"]
			if code == "" {
				return nil, fmt.Errorf("review needs code")
			}
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "Please review this " + lang + " code:\n" + code}},
				{Role: "user", Content: &mcp.TextContent{Text: "Say what could break."}},
			}}, nil
		})
	return s
}
