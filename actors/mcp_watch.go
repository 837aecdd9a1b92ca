package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/mcpclient"
)

// A server's notifications/tools/list_changed reaches the sessions between turns: the server's
// actor lists its tools again and tells each watching session (MCPWatch → MCPToolsChanged);
// the session rebuilds its setup off the actor, as /model does, and swaps it in when it is
// idle, so the stable prefix changes only between turns; mcp.tools_changed says what changed.

// callOp runs one MCPCall on conn: a tool call, or a resources operation.
func callOp(ctx context.Context, conn *mcpclient.Conn, call *messages.MCPCall) (mcpclient.Result, error) {
	switch call.Op {
	case "":
		return conn.Call(ctx, call.Tool, call.Args)
	case messages.MCPOpListResources:
		return conn.ListResources(ctx)
	case messages.MCPOpReadResource:
		var a struct {
			URI string `json:"uri"`
		}
		if err := json.Unmarshal(call.Args, &a); err != nil || a.URI == "" {
			return mcpclient.Result{Text: "mcp_read_resource needs a uri", IsError: true}, nil
		}
		return conn.ReadResource(ctx, a.URI)
	case messages.MCPOpGetPrompt:
		var a messages.MCPPromptArgs
		if err := json.Unmarshal(call.Args, &a); err != nil || a.Name == "" {
			return mcpclient.Result{Text: "prompts/get needs a prompt name", IsError: true}, nil
		}
		return conn.GetPrompt(ctx, a.Name, a.Arguments)
	}
	return mcpclient.Result{Text: fmt.Sprintf("unknown mcp operation %q", call.Op), IsError: true}, nil
}

// watch adds a session to the server's watchers; the watch ends when the session stops.
func (m *mcpServer) watch(ctx actor.Context, pid *actor.PID) {
	if pid == nil || slices.ContainsFunc(m.watchers, pid.Equal) {
		return
	}
	ctx.Watch(pid)
	m.watchers = append(m.watchers, pid)
}

func (m *mcpServer) unwatch(pid *actor.PID) {
	m.watchers = slices.DeleteFunc(m.watchers, pid.Equal)
}

// onRelisted takes the new list in and tells the watchers.
func (m *mcpServer) onRelisted(ctx actor.Context, msg *mcpRelisted) {
	if msg.gen != m.gen || msg.err != nil {
		if msg.err != nil {
			m.log.Warn("mcp server: listing the changed tools failed", "server", m.opt.Server.Name, "err", msg.err)
		}
		return
	}
	m.tools = msg.tools
	m.life.version++
	names := make([]string, len(m.tools))
	for i, t := range m.tools {
		names[i] = t.Name
	}
	for _, w := range m.watchers {
		ctx.Send(w, &messages.MCPToolsChanged{Server: m.opt.Server.Name, Version: m.life.version, Tools: names})
	}
}

// watch asks every server to tell pid when its tools change.
func (h *mcpHub) watch(pid *actor.PID) {
	if h == nil {
		return
	}
	for _, s := range h.servers {
		h.root.RequestWithCustomSender(h.pids[s.Name], &messages.MCPWatch{}, pid)
	}
}

// watchFunc is the hub's watch for SessionDeps; nil without servers.
func (h *mcpHub) watchFunc() func(*actor.PID) {
	if h == nil || len(h.servers) == 0 {
		return nil
	}
	return h.watch
}

// mcpRefresh is a session's pending take-in of changed MCP tools: it decides when a rebuild
// starts (one at a time, one more if news arrives meanwhile) and when a built setup may be
// swapped in (only while the session is idle, so the stable prefix changes between turns).
type mcpRefresh struct {
	changed []*messages.MCPToolsChanged // what arrived since the last rebuild
	ready   *SessionSetup               // built, waiting for the session to be idle
	err     error
	busy    bool // a rebuild is running off the actor
}

// note records a change; start says whether a rebuild should begin now, and marks it running.
func (m *mcpRefresh) note(msg *messages.MCPToolsChanged) { m.changed = append(m.changed, msg) }

func (m *mcpRefresh) start() bool {
	if m.busy || len(m.changed) == 0 {
		return false
	}
	m.busy = true
	return true
}

// built takes a finished rebuild's outcome.
func (m *mcpRefresh) built(setup *SessionSetup, err error) {
	m.busy = false
	m.ready, m.err = setup, err
}

// take hands over a built outcome when the session is idle and none is still building, and
// starts afresh; ok is false when there is nothing to swap in yet.
func (m *mcpRefresh) take(idle bool) (taken mcpRefresh, ok bool) {
	if !idle || m.busy || (m.ready == nil && m.err == nil) {
		return mcpRefresh{}, false
	}
	taken, *m = *m, mcpRefresh{}
	return taken, true
}

// report says what the swap changed: the tools before and after, and why it failed if it did.
func (m mcpRefresh) report(before, after []string, err error) *messages.MCPToolsChangedData {
	last := m.changed[len(m.changed)-1]
	d := &messages.MCPToolsChangedData{Server: last.Server, Version: last.Version, Tools: len(after)}
	for _, n := range after {
		if !slices.Contains(before, n) {
			d.Added = append(d.Added, n)
		}
	}
	for _, n := range before {
		if !slices.Contains(after, n) {
			d.Removed = append(d.Removed, n)
		}
	}
	if err != nil {
		d.Error = fmt.Sprintf("the new tools were not taken in: %v", err)
	}
	return d
}

// mcpSetupTimeout bounds rebuilding a session's setup (it may wait for a server to list).
const mcpSetupTimeout = mcpListWait + 10*time.Second

// onMCPToolsChanged starts a rebuild of the session's setup off the actor; one at a time, and
// one more if news arrives meanwhile.
func (s *session) onMCPToolsChanged(ctx actor.Context, msg *messages.MCPToolsChanged) {
	if s.deps.Setup == nil || s.finished() {
		return
	}
	s.mcp.note(msg)
	s.rebuildForMCP(ctx)
}

func (s *session) rebuildForMCP(ctx actor.Context) {
	if !s.mcp.start() {
		return
	}
	st := *s.cfg.wire()
	setupFor := s.deps.Setup
	offActor(ctx, mcpSetupTimeout, func() mcpBuilt {
		setup, err := setupFor(&st)
		return mcpBuilt{setup, err}
	}, func(b mcpBuilt, err error) {
		if err == nil {
			err = b.err
		}
		s.mcp.built(b.setup, err)
		s.applyMCPRefresh(ctx)
	})
}

type mcpBuilt struct {
	setup *SessionSetup
	err   error
}

// applyMCPRefresh swaps a built setup in when the session is idle (called again when it
// becomes idle) and says what changed.
func (s *session) applyMCPRefresh(ctx actor.Context) {
	taken, ok := s.mcp.take(s.phase == phaseIdle)
	if !ok {
		return
	}
	before := registryNames(s.deps.Tools)
	err := taken.err
	if err == nil {
		err = sessionHost{s: s, ctx: ctx}.ApplySetup(taken.ready, s.cfg.Model, s.cfg.PromptMode, "mcp list_changed")
	}
	s.emit(messages.MCPToolsChangedEvent.Of(taken.report(before, registryNames(s.deps.Tools), err)))
}

func registryNames(r *tools.Registry) []string {
	if r == nil {
		return nil
	}
	return r.Names()
}
