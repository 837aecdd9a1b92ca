// Command mcp measures what MCP costs a session, and prints it (nothing is asserted):
//
//   - call overhead: the median time of one tool call through the tool lifecycle, for the
//     built-in read_file and for an MCP tool (echo) of the Go test server and of the npm
//     reference server (server-everything, when .ci/run installed it), over -calls calls
//     after a warm-up. The MCP figure is the lifecycle plus mcpclient's round trip; the
//     actor hop of a session (one local message each way) is not in it.
//   - prefix bytes: the bytes the MCP tools add to the first request (each tool as name,
//     description and input schema in JSON, as providers receive them) for 1, 10 and 50
//     tools, taken from the reference servers' real tool lists (everything and filesystem,
//     cycled under other server names past their 34 tools) or, without them, the Go server.
//   - web_fetch of a 1 MB HTML page from 127.0.0.1: median time and the bytes the model gets.
//   - images: the time to fit an icon, a screenshot and a photo to the providers' limits, and
//     the bytes each puts on the wire.
//
// Usage: go run ./bench/mcp [-calls 200]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/mcptest"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/mcpclient"
)

func main() {
	mcptest.ServeIfAsked() // this program is also the Go test server
	calls := flag.Int("calls", 200, "calls per measurement")
	flag.Parse()
	dir, err := os.MkdirTemp("", "bench-mcp-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\nbeta\n"), 0o644)
	env := &tools.Env{Root: dir}

	fmt.Printf("MCP call overhead (median of %d calls through the tool lifecycle)\n", *calls)
	builtin := measure(*calls, env, []tools.Tool{tools.Builtins()[0]}, "read_file", `{"path":"a.txt"}`)
	fmt.Printf("  %-36s %8s\n", "built-in read_file", builtin)

	self, _ := os.Executable()
	goServer := config.MCPServer{Name: "go", Command: self, Env: map[string]string{mcptest.Variable: mcptest.ModeTools}}
	servers := []config.MCPServer{goServer}
	refDir := filepath.Join(mcptest.ReferenceDir(), "node_modules", "@modelcontextprotocol")
	everything := filepath.Join(refDir, "server-everything", "dist", "index.js")
	filesystem := filepath.Join(refDir, "server-filesystem", "dist", "index.js")
	haveRef := exists(everything) && exists(filesystem)
	if haveRef {
		servers = append(servers,
			config.MCPServer{Name: "everything", Command: "node", Args: []string{everything, "stdio"}},
			config.MCPServer{Name: "filesystem", Command: "node", Args: []string{filesystem, dir}})
	} else {
		fmt.Println("  (reference servers not installed in", mcptest.ReferenceDir(), "— run .ci/run; the Go server only)")
	}
	var allTools []tools.Tool
	for _, s := range servers {
		conn, ts := connect(s, dir)
		defer conn.Close()
		env := &tools.Env{Root: dir, MCP: directCaller{s.Name: conn}}
		var mine []tools.Tool
		for _, t := range ts {
			tool, err := tools.NewMCPTool(tools.MCPToolInfo{Server: s.Name, Tool: t.Name, Description: t.Description, Schema: t.Schema, ReadOnly: t.ReadOnly})
			if err == nil {
				mine = append(mine, tool)
			}
		}
		if s.Name != "go" {
			allTools = append(allTools, mine...)
		}
		switch s.Name {
		case "go":
			d := measure(*calls, env, mine, "mcp__go__echo", `{"msg":"hi"}`)
			fmt.Printf("  %-36s %8s  (+%s)\n", "MCP echo, Go test server (stdio)", d, d-builtin)
			if !haveRef {
				allTools = mine
			}
		case "everything":
			d := measure(*calls, env, mine, "mcp__everything__echo", `{"message":"hi"}`)
			fmt.Printf("  %-36s %8s  (+%s)\n", "MCP echo, server-everything (stdio)", d, d-builtin)
		}
	}

	fmt.Println("\nBytes MCP tools add to the first request (name + description + input schema, JSON)")
	for _, n := range []int{1, 10, 50} {
		bytes := 0
		for i := range n {
			spec := allTools[i%len(allTools)].Spec()
			b, _ := json.Marshal(map[string]any{"name": spec.Name, "description": spec.Description, "input_schema": spec.Schema})
			bytes += len(b)
		}
		fmt.Printf("  %2d tools: %7d bytes (~%d tokens at 4 bytes a token)\n", n, bytes, bytes/4)
	}
	benchWebFetch(max(*calls/10, 5), dir)
	benchImages(5)
}

type directCaller map[string]*mcpclient.Conn

func (d directCaller) CallMCP(ctx context.Context, server, tool string, args json.RawMessage) *messages.MCPCallResult {
	out, err := d[server].Call(ctx, tool, args)
	if err != nil {
		return &messages.MCPCallResult{Output: err.Error(), IsError: true}
	}
	return &messages.MCPCallResult{Output: out.Text, IsError: out.IsError}
}

func (d directCaller) MCPResources(ctx context.Context, op, server string, args json.RawMessage) *messages.MCPCallResult {
	return &messages.MCPCallResult{Output: "resources are not measured", IsError: true}
}

func connect(s config.MCPServer, dir string) (*mcpclient.Conn, []mcpclient.Tool) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := mcpclient.Dial(ctx, mcpclient.Options{Server: s, Root: dir, Environ: os.Environ()})
	if err != nil {
		fail(err)
	}
	ts, err := conn.Tools(ctx)
	if err != nil {
		fail(err)
	}
	return conn, ts
}

// measure is the median time of one call of name through a registry of ts.
func measure(n int, env *tools.Env, ts []tools.Tool, name, args string) time.Duration {
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		fail(err)
	}
	call := tools.Call{ID: "c", Name: name, Args: args}
	for range 10 {
		if res := reg.Execute(context.Background(), env, call); res.IsError {
			fail(fmt.Errorf("%s: %s", name, res.Output))
		}
	}
	times := make([]time.Duration, n)
	for i := range n {
		began := time.Now()
		reg.Execute(context.Background(), env, call)
		times[i] = time.Since(began)
	}
	slices.Sort(times)
	return times[n/2].Round(time.Microsecond)
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/mcp:", err)
	os.Exit(1)
}
