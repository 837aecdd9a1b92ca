package actors

import (
	"context"
	"encoding/json"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/mcpclient"
)

// A server's prompts are listed when it connects and again after
// notifications/prompts/list_changed; the actor keeps the list in its status, where the
// chat's /mcp__<server>__<prompt> commands (commands_mcp_prompt.go) find them when they run.

type (
	mcpPromptsChanged struct{ gen int }
	mcpPromptsListed  struct {
		gen     int
		prompts []messages.MCPPromptSpec
		err     error
	}
)

func listPrompts(ctx context.Context, conn *mcpclient.Conn) ([]messages.MCPPromptSpec, error) {
	ps, err := conn.Prompts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]messages.MCPPromptSpec, len(ps))
	for i, p := range ps {
		out[i] = messages.MCPPromptSpec{Name: p.Name, Description: p.Description}
		for _, a := range p.Arguments {
			out[i].Arguments = append(out[i].Arguments, messages.MCPPromptArg{Name: a.Name, Description: a.Description, Required: a.Required})
		}
	}
	return out, nil
}

// onPromptsChanged lists the prompts again in a goroutine; the list comes back as
// mcpPromptsListed.
func (m *mcpServer) onPromptsChanged(ctx actor.Context, msg *mcpPromptsChanged) {
	if msg.gen != m.gen || m.conn == nil {
		return
	}
	conn, self, root := m.conn, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		cctx, cancel := context.WithTimeout(context.Background(), mcpPromptListTimeout)
		defer cancel()
		list, err := listPrompts(cctx, conn)
		root.Send(self, &mcpPromptsListed{gen: msg.gen, prompts: list, err: err})
	}()
}

// mcpPromptListTimeout bounds listing a server's prompts again.
const mcpPromptListTimeout = 30 * time.Second

func (m *mcpServer) onPromptsListed(msg *mcpPromptsListed) {
	if msg.gen != m.gen {
		return
	}
	if msg.err != nil {
		m.log.Warn("mcp server: listing the changed prompts failed", "server", m.opt.Server.Name, "err", msg.err)
		return
	}
	m.prompts = msg.prompts
}

// mcpPrompter is what a session's prompt commands ask of the MCP servers, safe to call off
// the actor: their statuses (starting the servers named when start lists them) and one
// prompt filled with its arguments.
type mcpPrompter interface {
	Statuses(start []string) []*messages.MCPServerStatus
	Get(ctx context.Context, server, name string, args map[string]string) *messages.MCPCallResult
}

// prompter is session's mcpPrompter; nil without servers.
func (h *mcpHub) prompter(session string) mcpPrompter {
	if h == nil || len(h.servers) == 0 {
		return nil
	}
	return hubPrompter{hub: h, session: session}
}

type hubPrompter struct {
	hub     *mcpHub
	session string
}

func (p hubPrompter) Statuses(start []string) []*messages.MCPServerStatus {
	return p.hub.statuses(start)
}

func (p hubPrompter) Get(ctx context.Context, server, name string, args map[string]string) *messages.MCPCallResult {
	body, _ := json.Marshal(messages.MCPPromptArgs{Name: name, Arguments: args})
	c := mcpCaller{hub: p.hub, session: p.session}
	return c.ask(ctx, &messages.MCPCall{Server: server, Op: messages.MCPOpGetPrompt, Tool: name, Args: body, Session: p.session}, "prompt "+name+" of "+server)
}
