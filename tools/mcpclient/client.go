// Package mcpclient connects to one MCP server through the official Go SDK: a command over
// stdio (its process confined by the sandbox, in its own process group), or a URL over
// streamable HTTP or SSE. It lists the server's tools and calls them; the actor that owns a
// Conn (actors/mcp_server.go) decides when to start, restart and give up.
package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/troupe-dev/troupe/config"
)

// MaxMessageBytes bounds one message from a server (a tool's result): beyond it the
// connection fails rather than buffering without end. It is large enough that a 50 MB result
// arrives whole, to be cut and kept as an artifact by the tool lifecycle.
const MaxMessageBytes = 96 << 20

// Wrapper confines a server's process: it rewrites cmd to run under the sandbox with network
// allowed, writable (plus the sandbox's own cache dirs) writable and hidden unreadable.
type Wrapper interface {
	WrapServer(cmd *exec.Cmd, writable, hidden []string) error
}

// Options say how to reach one server.
type Options struct {
	Server config.MCPServer
	// Root is the workspace: a stdio server's working directory unless it sets cwd, and
	// writable to it.
	Root string
	// Environ is the base environment of a stdio server's process; the server's env is added.
	Environ []string
	// Writable are more paths the process may write (the npm cache and the like).
	Writable []string
	// Hidden are the paths the process may not read (the credential list, sandbox.HiddenPaths,
	// minus what the server's writable lists).
	Hidden  []string
	Sandbox Wrapper // nil runs the process unconfined
	// OnToolsChanged is called (on the SDK's goroutine) when the server says its tool list
	// changed; OnPromptsChanged likewise for its prompts.
	OnToolsChanged   func()
	OnPromptsChanged func()
	Log              *slog.Logger
}

// Tool is one tool a server offers, with its input schema as JSON.
type Tool struct {
	Name, Description string
	Schema            json.RawMessage
	ReadOnly          bool
}

// Conn is a live connection to one server. Its methods are safe for concurrent use.
type Conn struct {
	name    string
	session *mcp.ClientSession
	proc    *process // nil for a URL server
	done    chan struct{}

	mu  sync.Mutex
	err error
}

// Dial starts (or reaches) the server and completes MCP's initialize handshake within ctx.
func Dial(ctx context.Context, opt Options) (*Conn, error) {
	s := opt.Server
	client := mcp.NewClient(&mcp.Implementation{Name: "troupe", Version: "1"}, &mcp.ClientOptions{
		Logger: opt.Log,
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			if opt.OnToolsChanged != nil {
				opt.OnToolsChanged()
			}
		},
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) {
			if opt.OnPromptsChanged != nil {
				opt.OnPromptsChanged()
			}
		},
		Capabilities: &mcp.ClientCapabilities{},
	})
	c := &Conn{name: s.Name, done: make(chan struct{})}
	var transport mcp.Transport
	switch s.Transport() {
	case config.MCPStdio:
		p, err := startProcess(opt)
		if err != nil {
			return nil, err
		}
		c.proc = p
		transport = &mcp.IOTransport{Reader: p.stdout, Writer: p.stdin, MaxLineLength: MaxMessageBytes}
	case config.MCPHTTP:
		transport = &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: headerClient(s.Headers), MaxEventSize: MaxMessageBytes}
	case config.MCPSSE:
		transport = &mcp.SSEClientTransport{Endpoint: s.URL, HTTPClient: headerClient(s.Headers), MaxEventSize: MaxMessageBytes}
	default:
		return nil, fmt.Errorf("mcp server %s: unknown type %q", s.Name, s.Type)
	}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, c.dialError(ctx, err)
	}
	c.session = session
	go c.watch()
	return c, nil
}

// dialError says why the handshake failed, with the process's last words when it died.
func (c *Conn) dialError(ctx context.Context, err error) error {
	if c.proc == nil {
		return fmt.Errorf("mcp server %s: connect: %w", c.name, err)
	}
	c.proc.stop()
	why := c.proc.exitNote()
	if ctx.Err() != nil && why == "" {
		return fmt.Errorf("mcp server %s: no answer to initialize in time (%v)", c.name, context.Cause(ctx))
	}
	if why == "" {
		why = err.Error()
	}
	return fmt.Errorf("mcp server %s: failed during initialize: %s", c.name, why)
}

// watch closes done when the session ends (the process died, the connection broke, or Close).
func (c *Conn) watch() {
	err := c.session.Wait()
	if c.proc != nil {
		c.proc.stop()
		if note := c.proc.exitNote(); note != "" {
			err = errors.New(note)
		}
	}
	c.mu.Lock()
	if c.err == nil {
		if err == nil {
			err = errors.New("the connection closed")
		}
		c.err = err
	}
	c.mu.Unlock()
	close(c.done)
}

// Done is closed when the connection is gone; Err then says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is why the connection ended, or nil while it is up.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the session and stops the process (its whole group).
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.err == nil {
		c.err = errors.New("closed")
	}
	c.mu.Unlock()
	err := c.session.Close()
	if c.proc != nil {
		c.proc.stop()
	}
	<-c.done
	return err
}

// Tools lists every tool the server offers (all pages).
func (c *Conn) Tools(ctx context.Context) ([]Tool, error) {
	var out []Tool
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcp server %s: list tools: %w", c.name, err)
		}
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("mcp server %s: tool %s: schema: %w", c.name, t.Name, err)
		}
		ro := t.Annotations != nil && t.Annotations.ReadOnlyHint
		out = append(out, Tool{Name: t.Name, Description: t.Description, Schema: schema, ReadOnly: ro})
	}
	return out, nil
}

// Call calls a tool and gives its result; Result.IsError is the server's own verdict. err is
// a failure to get a result at all (the connection, the deadline).
func (c *Conn) Call(ctx context.Context, tool string, args json.RawMessage) (Result, error) {
	var params any = map[string]any{}
	if len(args) > 0 {
		params = args
	}
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: params})
	if err != nil {
		return Result{}, err
	}
	return ResultOf(res), nil
}

// headerClient is an HTTP client that adds the configured headers to every request.
func headerClient(headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return &http.Client{}
	}
	return &http.Client{Transport: headerTransport{headers: headers, base: http.DefaultTransport}}
}

type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

// Image is one image of a tool result, as the server sent it.
type Image struct {
	MediaType string
	Data      []byte
}

// Result is a tool result: its text as the model reads it, and its images.
type Result struct {
	Text    string
	IsError bool
	Images  []Image
}

// The bounds on a result's images: a result is one message that could cross the bus.
const (
	maxImages     = 8
	maxImageBytes = 8 << 20
)

// ResultOf is a tool result as the model reads it: text parts as they are, images apart (up to
// maxImages of up to maxImageBytes each; the rest become a line), other parts as one line
// saying what they are, and structured content as JSON when there is nothing else.
func ResultOf(res *mcp.CallToolResult) Result {
	var parts []string
	out := Result{IsError: res.IsError}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			if len(out.Images) < maxImages && len(c.Data) <= maxImageBytes {
				out.Images = append(out.Images, Image{MediaType: c.MIMEType, Data: c.Data})
				continue
			}
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes, not attached: a result attaches at most %d images of %d MB]", c.MIMEType, len(c.Data), maxImages, maxImageBytes>>20))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s %s]", c.URI, c.Name))
		case *mcp.EmbeddedResource:
			if r := c.Resource; r != nil && r.Text != "" {
				parts = append(parts, r.Text)
			} else if r != nil {
				parts = append(parts, fmt.Sprintf("[resource %s %s, %d bytes]", r.URI, r.MIMEType, len(r.Blob)))
			}
		}
	}
	if len(parts) == 0 && len(out.Images) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	out.Text = strings.Join(parts, "\n")
	return out
}
