package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/mcpclient"
	"github.com/troupe-dev/troupe/tools/sandbox"
)

// defaultMCPCallTimeout bounds one MCP tool call when the server sets no timeout_s.
const defaultMCPCallTimeout = 120 * time.Second

// mcpListWait bounds how long building a session's tools waits for a server to start and list
// its tools; a server not up by then is left out of that session's tools (with a warning).
const mcpListWait = 30 * time.Second

// mcpHub is the Node's handle on its MCP server actors, one per configured server. Its map is
// fixed when the Node starts and only read after, so sessions share it without a lock; each
// server's state lives in its actor.
type mcpHub struct {
	root    *actor.RootContext
	servers []config.MCPServer
	pids    map[string]*actor.PID
	timeout map[string]time.Duration
	log     *slog.Logger
	closing *closeGroup
}

// startMCP spawns one actor per server; those with start = "session" start now, the others
// when a session first needs their tools.
func startMCP(system *actor.ActorSystem, opts NodeOptions) (*mcpHub, error) {
	servers, root, log := opts.MCPServers, opts.Root, opts.Log
	h := &mcpHub{root: system.Root, servers: servers, pids: map[string]*actor.PID{}, timeout: map[string]time.Duration{},
		log: log, closing: &closeGroup{}}
	wrapper, _ := opts.Sandbox.(mcpclient.Wrapper)
	home, _ := os.UserHomeDir()
	for _, s := range servers {
		timeout := defaultMCPCallTimeout
		if s.TimeoutS > 0 {
			timeout = time.Duration(s.TimeoutS) * time.Second
		}
		opt := mcpclient.Options{Server: s, Root: root, Environ: serverEnviron(opts.Environ), Writable: packageCaches(), Log: log}
		if wrapper != nil {
			// The server's own writable paths are its credentials too: they stay readable.
			allow := append(append([]string(nil), opts.AllowRead...), s.Writable...)
			opt.Sandbox, opt.Hidden = wrapper, sandbox.HiddenPaths(home, root, opts.UserConfigDir, opts.DenyRead, allow)
		}
		pid, err := system.Root.SpawnNamed(actor.PropsFromProducer(newMCPServer(opt, timeout, log, h.closing)), "mcp-"+s.Name)
		if err != nil {
			h.close()
			return nil, fmt.Errorf("spawn mcp server %s: %w", s.Name, err)
		}
		h.pids[s.Name], h.timeout[s.Name] = pid, timeout
		if s.Start == "session" {
			system.Root.Send(pid, &messages.MCPListTools{Start: true})
		}
	}
	return h, nil
}

// serverEnviron is the environment of a server's process: the Node's command environment, or
// this process's PATH and HOME when it has none.
func serverEnviron(environ []string) []string {
	if environ != nil {
		return environ
	}
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "LANG=C.UTF-8"}
}

// packageCaches are what package runners (npx, uvx) write besides the user cache dir, which
// the sandbox grants already.
func packageCaches() []string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(home, ".npm")}
}

// tools lists every server's tools as tools.Tool, starting servers that have not started and
// waiting for them up to mcpListWait. A server that fails or a tool whose schema does not
// compile is left out with a warning; the rest are offered. When search is served by an MCP
// server's tool, web_search is built from that tool as listed (mcpSearchTool).
func (h *mcpHub) tools(search *tools.SearchConfig) []tools.Tool {
	if h == nil || len(h.servers) == 0 {
		return nil
	}
	statuses := make([]*messages.MCPServerStatus, len(h.servers))
	var wg sync.WaitGroup
	for i, s := range h.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := h.root.RequestFuture(h.pids[s.Name], &messages.MCPListTools{Start: true}, mcpListWait).Result()
			if st, ok := res.(*messages.MCPServerStatus); ok && err == nil {
				statuses[i] = st
				return
			}
			statuses[i] = &messages.MCPServerStatus{Server: s.Name, State: messages.MCPStarting, LastError: "not up within " + mcpListWait.String()}
		}()
	}
	wg.Wait()
	var out []tools.Tool
	var withResources []string
	for i, st := range statuses {
		s := h.servers[i]
		if st.State != messages.MCPReady {
			h.log.Warn(fmt.Sprintf("mcp server %s: its tools are not offered: %s", s.Name, st.LastError))
			continue
		}
		if st.Resources {
			withResources = append(withResources, s.Name)
		}
		for _, t := range st.Tools {
			tool, err := tools.NewMCPTool(tools.MCPToolInfo{Server: s.Name, Tool: t.Name, Description: t.Description,
				Schema: t.Schema, ReadOnly: t.ReadOnly, Risk: tools.Risk(s.Risk)})
			if err != nil {
				h.log.Warn(fmt.Sprintf("%v; the tool is skipped", err))
				continue
			}
			out = append(out, tool)
		}
	}
	out = append(out, tools.MCPResourceTools(withResources)...)
	if search != nil && search.ViaMCP() {
		if t := h.searchTool(*search, statuses); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// searchTool is web_search through the configured server's tool. When that server cannot
// serve it now, web_search is a tool whose every call says why in one line (and the Node's
// log says it once), so the user sees what to fix where the search was wanted.
func (h *mcpHub) searchTool(search tools.SearchConfig, statuses []*messages.MCPServerStatus) tools.Tool {
	i := slices.IndexFunc(h.servers, func(s config.MCPServer) bool { return s.Name == search.Server })
	if i < 0 {
		return nil // not a running server: said once when the Node's options were built
	}
	broken := func(why string) tools.Tool {
		h.log.Warn(why)
		return tools.BrokenSearch(why)
	}
	st := statuses[i]
	if st.State != messages.MCPReady {
		return broken(fmt.Sprintf("web_search: mcp server %s is not ready (%s); /mcp shows its state", search.Server, st.LastError))
	}
	var names []string
	for _, t := range st.Tools {
		if t.Name != search.Tool {
			names = append(names, t.Name)
			continue
		}
		tool, err := tools.MCPSearch(tools.MCPToolInfo{Server: search.Server, Tool: t.Name, Description: t.Description, Schema: t.Schema})
		if err != nil {
			return broken(err.Error())
		}
		return tool
	}
	return broken(fmt.Sprintf("web_search: mcp server %s has no tool %q (it has %s); fix [web] search_tool in your config", search.Server, search.Tool, strings.Join(names, ", ")))
}

// caller is a session's tools.MCPCaller: each call is a message to the server's actor.
func (h *mcpHub) caller(session string) tools.MCPCaller {
	if h == nil || len(h.servers) == 0 {
		return nil
	}
	return mcpCaller{hub: h, session: session}
}

type mcpCaller struct {
	hub     *mcpHub
	session string
}

func (c mcpCaller) CallMCP(ctx context.Context, server, tool string, args json.RawMessage) *messages.MCPCallResult {
	return c.ask(ctx, &messages.MCPCall{Server: server, Tool: tool, Args: args, Session: c.session}, tools.MCPToolName(server, tool))
}

func (c mcpCaller) MCPResources(ctx context.Context, op, server string, args json.RawMessage) *messages.MCPCallResult {
	return c.ask(ctx, &messages.MCPCall{Server: server, Op: op, Args: args, Session: c.session}, op+" of "+server)
}

// ask sends call to its server's actor and waits for the answer or ctx.
func (c mcpCaller) ask(ctx context.Context, call *messages.MCPCall, what string) *messages.MCPCallResult {
	server := call.Server
	fail := func(msg string) *messages.MCPCallResult {
		return &messages.MCPCallResult{Server: server, Tool: call.Tool, Session: c.session, Output: msg, IsError: true}
	}
	pid, ok := c.hub.pids[server]
	if !ok {
		return fail(fmt.Sprintf("mcp server %s is not configured", server))
	}
	// The actor answers within the call's timeout (plus a start); the future's own bound is
	// only a backstop so a lost answer never holds the turn.
	wait := c.hub.timeout[server] + mcpStartTimeout + 5*time.Second
	future := c.hub.root.RequestFuture(pid, call, wait)
	done := make(chan *messages.MCPCallResult, 1)
	go func() {
		res, err := future.Result()
		if r, ok := res.(*messages.MCPCallResult); ok && err == nil {
			done <- r
			return
		}
		done <- fail(fmt.Sprintf("mcp server %s: no answer for %s: %v", server, what, err))
	}()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		return fail(fmt.Sprintf("%s was cancelled: %v", what, context.Cause(ctx)))
	}
}

// close stops the server actors and waits for their processes to stop.
func (h *mcpHub) close() {
	if h == nil {
		return
	}
	for _, pid := range h.pids {
		h.root.StopFuture(pid).Wait()
	}
	h.closing.Wait()
}

// closeGroup runs the closing of connections off the actors and lets the Node wait for them.
type closeGroup struct{ wg sync.WaitGroup }

func (g *closeGroup) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func (g *closeGroup) Wait() { g.wg.Wait() }
