package actors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/mcpclient"
)

// mcpServer is the actor that owns one configured MCP server: its connection and process,
// its tool list and its restarts. Executors call its tools by message (MCPCall → the answer
// goes to the sender); Receive only routes: starting, listing and calling run in goroutines
// the actor owns, which report back to it as messages (docs/ARCHITECTURE.md, the transport
// rule). The decisions on restarts are mcpLife's.
type mcpServer struct {
	opt     mcpclient.Options
	timeout time.Duration // per call
	log     *slog.Logger
	closing *closeGroup // the Node waits for the servers' processes to stop

	life    mcpLife
	conn    *mcpclient.Conn
	gen     int // which connection a report is about; a stale one is ignored
	tools   []messages.MCPToolSpec
	prompts []messages.MCPPromptSpec // the chat's /mcp__<server>__<prompt> commands (mcp_prompts.go)
	waiters []*actor.PID             // MCPListTools waiting for a start
	queued  []queuedMCPCall          // calls waiting for a start
	// watchers are the sessions told when the tools change (MCPWatch), until they stop.
	watchers []*actor.PID
}

type queuedMCPCall struct {
	call   *messages.MCPCall
	sender *actor.PID
}

// What the actor's goroutines report.
type (
	mcpConnected struct {
		gen     int
		conn    *mcpclient.Conn
		tools   []messages.MCPToolSpec
		prompts []messages.MCPPromptSpec
		err     error
	}
	mcpConnLost struct {
		gen int
		err error
	}
	mcpToolsChanged struct{ gen int }
	mcpRelisted     struct {
		gen   int
		tools []messages.MCPToolSpec
		err   error
	}
	mcpRetry struct{}
)

// startTimeout bounds a server's start and initialize handshake (npx may fetch a package).
const mcpStartTimeout = 60 * time.Second

func newMCPServer(opt mcpclient.Options, timeout time.Duration, log *slog.Logger, closing *closeGroup) actor.Producer {
	return func() actor.Actor {
		return &mcpServer{opt: opt, timeout: timeout, log: log, closing: closing, life: mcpLife{state: messages.MCPStopped}}
	}
}

func (m *mcpServer) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.MCPListTools:
		m.onList(ctx, msg)
	case *messages.MCPCall:
		m.onCall(ctx, msg, ctx.Sender())
	case *mcpConnected:
		m.onConnected(ctx, msg)
	case *mcpConnLost:
		m.onLost(ctx, msg)
	case *mcpToolsChanged:
		m.onToolsChanged(ctx, msg)
	case *mcpRelisted:
		m.onRelisted(ctx, msg)
	case *mcpPromptsChanged:
		m.onPromptsChanged(ctx, msg)
	case *mcpPromptsListed:
		m.onPromptsListed(msg)
	case *messages.MCPWatch:
		m.watch(ctx, ctx.Sender())
	case *actor.Terminated:
		m.unwatch(msg.Who)
	case *mcpRetry:
		if m.life.state == messages.MCPFailed {
			m.start(ctx)
		}
	case *actor.Stopping:
		if m.conn != nil {
			conn := m.conn
			m.conn = nil
			m.closing.Go(func() { conn.Close() })
		}
	}
}

func (m *mcpServer) status() *messages.MCPServerStatus {
	return &messages.MCPServerStatus{Server: m.opt.Server.Name, State: m.life.state, Tools: m.tools,
		LastError: m.life.lastErr, Version: m.life.version, Restarts: m.life.restarts,
		Resources: m.conn != nil && m.conn.HasResources(), Prompts: m.prompts}
}

func (m *mcpServer) onList(ctx actor.Context, msg *messages.MCPListTools) {
	if !msg.Start || m.life.state == messages.MCPReady {
		m.reply(ctx, ctx.Sender(), m.status())
		return
	}
	if !m.life.mayStart(time.Now()) {
		m.reply(ctx, ctx.Sender(), m.status())
		return
	}
	if ctx.Sender() != nil {
		m.waiters = append(m.waiters, ctx.Sender())
	}
	m.start(ctx)
}

func (m *mcpServer) onCall(ctx actor.Context, call *messages.MCPCall, sender *actor.PID) {
	switch {
	case m.life.state == messages.MCPReady:
		m.run(ctx, call, sender)
	case m.life.state == messages.MCPStarting:
		m.queued = append(m.queued, queuedMCPCall{call, sender})
	case m.life.mayStart(time.Now()):
		m.queued = append(m.queued, queuedMCPCall{call, sender})
		m.start(ctx)
	default:
		m.reply(ctx, sender, m.failedResult(call, 0))
	}
}

// start connects in a goroutine; the result comes back as mcpConnected.
func (m *mcpServer) start(ctx actor.Context) {
	if m.life.state == messages.MCPStarting {
		return
	}
	m.life.state = messages.MCPStarting
	m.gen++
	gen, opt, self, root := m.gen, m.opt, ctx.Self(), ctx.ActorSystem().Root
	opt.OnToolsChanged = func() { root.Send(self, &mcpToolsChanged{gen: gen}) }
	opt.OnPromptsChanged = func() { root.Send(self, &mcpPromptsChanged{gen: gen}) }
	log, name := m.log, m.opt.Server.Name
	go func() {
		cctx, cancel := context.WithTimeout(context.Background(), mcpStartTimeout)
		defer cancel()
		conn, err := mcpclient.Dial(cctx, opt)
		if err != nil {
			root.Send(self, &mcpConnected{gen: gen, err: err})
			return
		}
		list, err := listTools(cctx, conn)
		if err != nil {
			conn.Close()
			root.Send(self, &mcpConnected{gen: gen, err: err})
			return
		}
		prompts, err := listPrompts(cctx, conn)
		if err != nil { // the tools still work: the prompts are left out
			log.Warn("mcp server: listing its prompts failed", "server", name, "err", err)
		}
		root.Send(self, &mcpConnected{gen: gen, conn: conn, tools: list, prompts: prompts})
		<-conn.Done()
		root.Send(self, &mcpConnLost{gen: gen, err: conn.Err()})
	}()
}

func listTools(ctx context.Context, conn *mcpclient.Conn) ([]messages.MCPToolSpec, error) {
	ts, err := conn.Tools(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]messages.MCPToolSpec, len(ts))
	for i, t := range ts {
		out[i] = messages.MCPToolSpec{Name: t.Name, Description: t.Description, Schema: t.Schema, ReadOnly: t.ReadOnly}
	}
	return out, nil
}

func (m *mcpServer) onConnected(ctx actor.Context, msg *mcpConnected) {
	if msg.gen != m.gen {
		if msg.conn != nil {
			conn := msg.conn
			m.closing.Go(func() { conn.Close() })
		}
		return
	}
	if msg.err != nil {
		m.life.failed(time.Now(), msg.err)
		m.log.Warn("mcp server failed to start", "server", m.opt.Server.Name, "err", msg.err)
		for _, q := range m.queued {
			m.reply(ctx, q.sender, m.failedResult(q.call, 0))
		}
	} else {
		m.conn, m.tools, m.prompts = msg.conn, msg.tools, msg.prompts
		m.life.ready()
		for _, q := range m.queued {
			m.run(ctx, q.call, q.sender)
		}
	}
	for _, w := range m.waiters {
		m.reply(ctx, w, m.status())
	}
	m.waiters, m.queued = nil, nil
}

// onLost: the server died or the connection broke; it restarts after the backoff.
func (m *mcpServer) onLost(ctx actor.Context, msg *mcpConnLost) {
	if msg.gen != m.gen || m.conn == nil {
		return
	}
	m.conn = nil
	err := msg.err
	if err == nil {
		err = errors.New("the connection closed")
	}
	m.life.lost(time.Now(), err)
	m.log.Warn("mcp server stopped; restarting after a backoff", "server", m.opt.Server.Name, "err", err, "in", m.life.wait)
	self, root := ctx.Self(), ctx.ActorSystem().Root
	time.AfterFunc(m.life.wait, func() { root.Send(self, &mcpRetry{}) })
}

func (m *mcpServer) onToolsChanged(ctx actor.Context, msg *mcpToolsChanged) {
	if msg.gen != m.gen || m.conn == nil {
		return
	}
	conn, self, root := m.conn, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		cctx, cancel := context.WithTimeout(context.Background(), mcpStartTimeout)
		defer cancel()
		list, err := listTools(cctx, conn)
		root.Send(self, &mcpRelisted{gen: msg.gen, tools: list, err: err})
	}()
}

// run calls the tool in a goroutine bounded by the call's timeout; the answer goes straight
// to the sender.
func (m *mcpServer) run(ctx actor.Context, call *messages.MCPCall, sender *actor.PID) {
	conn, root, timeout := m.conn, ctx.ActorSystem().Root, m.timeout
	if call.TimeoutMS > 0 {
		timeout = time.Duration(call.TimeoutMS) * time.Millisecond
	}
	name, log := m.opt.Server.Name, m.log
	go func() {
		began := time.Now()
		cctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		out, err := callOp(cctx, conn, call)
		if err != nil && cctx.Err() == nil {
			// A broken connection fails the call before the Conn has seen the process exit;
			// wait a moment for it so the result says the server stopped.
			select {
			case <-conn.Done():
			case <-time.After(time.Second):
			}
		}
		res := &messages.MCPCallResult{Server: name, Tool: call.Tool, Session: call.Session, Output: out.Text, IsError: out.IsError,
			DurationMS: time.Since(began).Milliseconds()}
		for _, img := range out.Images {
			res.Images = append(res.Images, messages.MCPImage{MediaType: img.MediaType, Data: img.Data})
		}
		switch {
		case err != nil && cctx.Err() != nil:
			res.Output, res.IsError = fmt.Sprintf("mcp server %s: %s gave no answer within %s; the call was cancelled and a late answer is dropped", name, call.Tool, timeout), true
		case err != nil && conn.Err() != nil:
			res.Output, res.IsError = fmt.Sprintf("mcp server %s stopped during the call (%v); it restarts, so the call may be retried", name, conn.Err()), true
		case err != nil:
			res.Output, res.IsError = fmt.Sprintf("mcp server %s: %s failed: %v", name, call.Tool, err), true
		}
		log.Info("mcp call", "server", name, "tool", call.Tool, "session", call.Session, "ms", res.DurationMS, "is_error", res.IsError)
		if sender != nil {
			root.Send(sender, res)
		}
	}()
}

func (m *mcpServer) failedResult(call *messages.MCPCall, took time.Duration) *messages.MCPCallResult {
	msg := fmt.Sprintf("mcp server %s is not available: %s", m.opt.Server.Name, m.life.lastErr)
	if wait := time.Until(m.life.retryAt); wait > 0 {
		msg += fmt.Sprintf(" (troupe retries in %s)", wait.Round(time.Second))
	}
	m.log.Info("mcp call refused", "server", m.opt.Server.Name, "tool", call.Tool, "session", call.Session, "err", m.life.lastErr)
	return &messages.MCPCallResult{Server: m.opt.Server.Name, Tool: call.Tool, Session: call.Session, Output: msg, IsError: true, DurationMS: took.Milliseconds()}
}

func (m *mcpServer) reply(ctx actor.Context, to *actor.PID, msg any) {
	if to != nil {
		ctx.Send(to, msg)
	}
}
