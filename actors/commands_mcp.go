package actors

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// mcpStatusWait bounds how long /mcp waits for each server's actor to answer.
const mcpStatusWait = 5 * time.Second

// runMCP is /mcp: each configured MCP server with its state, its tool count and its last
// error. The servers' actors are asked off the session's actor.
func runMCP(h commandHost, _ string) *messages.InputAck {
	ask := h.Snapshot().MCP
	if ask == nil {
		return commandOutput("no MCP servers configured: troupe mcp add NAME COMMAND [ARGS...] adds one (troupe mcp list shows what is configured)")
	}
	h.Later(2*mcpStatusWait, func() func() string {
		text := mcpView(ask())
		return func() string { return text }
	}, func(err error) string { return "/mcp: the servers did not answer: " + err.Error() })
	return nil
}

// mcpView is one line per server: name, state, tool count, restarts and the last error.
func mcpView(statuses []*messages.MCPServerStatus) string {
	var b strings.Builder
	for _, st := range statuses {
		fmt.Fprintf(&b, "%-16s %-8s %3d tools", st.Server, st.State, len(st.Tools))
		if st.Restarts > 0 {
			fmt.Fprintf(&b, ", %d restarts", st.Restarts)
		}
		if st.LastError != "" {
			fmt.Fprintf(&b, "  last error: %s", st.LastError)
		}
		b.WriteString("\n")
		b.WriteString(mcpPromptLines(st))
	}
	return strings.TrimRight(b.String(), "\n")
}

// statusFunc asks every server's actor its state (without starting it); nil without servers.
func (h *mcpHub) statusFunc() func() []*messages.MCPServerStatus {
	if h == nil || len(h.servers) == 0 {
		return nil
	}
	return func() []*messages.MCPServerStatus { return h.statuses(nil) }
}

// statuses asks every server's actor its state at once, starting those named in start (and
// waiting longer for them); a server that does not answer in time is reported as starting.
func (h *mcpHub) statuses(start []string) []*messages.MCPServerStatus {
	out := make([]*messages.MCPServerStatus, len(h.servers))
	var wg sync.WaitGroup
	for i, s := range h.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wait := mcpStatusWait
			if slices.Contains(start, s.Name) {
				wait = mcpPromptStartWait
			}
			res, err := h.root.RequestFuture(h.pids[s.Name], &messages.MCPListTools{Start: slices.Contains(start, s.Name)}, wait).Result()
			if st, ok := res.(*messages.MCPServerStatus); ok && err == nil {
				out[i] = st
				return
			}
			out[i] = &messages.MCPServerStatus{Server: s.Name, State: messages.MCPStarting, LastError: fmt.Sprintf("no answer: %v", err)}
		}()
	}
	wg.Wait()
	return out
}
