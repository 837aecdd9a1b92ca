package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/store"
)

// link is this process's connection to the project's Node: attached to one running in another
// process, or owning one it started itself.
type link struct {
	client *actors.Client
	node   *actors.Node // non-nil when this process owns the Node
}

// connect attaches to the project's running Node, or starts one in this process. Two processes
// racing to start one are settled by the store's lock: the loser attaches to the winner.
func (m *Main) connect(s *settings) (*link, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := actors.FindNode(s.root, s.cfg.NATS)
		if errors.Is(err, actors.ErrForeignNode) {
			return nil, usageErr("%v", err)
		}
		if err == nil {
			nc, err := actors.Dial(info.URL, info.Token, "troupe-cli")
			if err == nil {
				m.trace.Mark(starttrace.Attached)
				return &link{client: actors.NewNodeClient(nc, info)}, nil
			}
			m.log.Debug("attach failed", "err", err)
		}
		opts, err := m.nodeOptions(s)
		if err != nil {
			return nil, err
		}
		node, err := actors.StartNode(opts)
		if err == nil {
			s.wire.Set(node.Store())
			client, err := node.Client()
			if err != nil {
				node.Close()
				return nil, err
			}
			m.trace.Mark(starttrace.Attached)
			return &link{client: client, node: node}, nil
		}
		var join *actors.JoinError
		if errors.As(err, &join) {
			return nil, usageErr("%v: is the server running? check --nats (or nats in your config)", err)
		}
		if !errors.Is(err, store.ErrLocked) || time.Now().After(deadline) {
			return nil, fmt.Errorf("start troupe node in %s: %w", s.root, err)
		}
		time.Sleep(100 * time.Millisecond) // another process is starting its Node: attach to it
	}
}

func (m *Main) nodeOptions(s *settings) (actors.NodeOptions, error) {
	sb, _, err := sandboxFor(s.cfg.Sandbox)
	if err != nil {
		return actors.NodeOptions{}, err
	}
	s.wire = &llm.MemoryRef{}
	retry := llm.DefaultRetryPolicy()
	if s.cfg.Provider.IdleTimeoutS > 0 {
		retry.IdleTimeout = time.Duration(s.cfg.Provider.IdleTimeoutS) * time.Second
	}
	return actors.NodeOptions{
		Root: s.root,
		Log:  m.log,
		Provider: func(model, baseURL string) (llm.Provider, string, error) {
			p, name, err := llm.Open(model, llm.Options{BaseURL: baseURL, Getenv: os.Getenv, Memory: s.wire})
			if err != nil {
				return nil, "", err
			}
			return m.trace.Provider(p), name, nil
		},
		OnPhase:       m.trace.PhaseFunc(),
		Environ:       actors.CommandEnviron(os.Environ(), s.cfg.Env.Pass, s.cfg.Env.Set),
		Sandbox:       sb,
		Retry:         retry,
		Agents:        agentLimits(s.cfg),
		NATS:          s.cfg.NATS,
		UserConfigDir: config.UserDir(m.Getenv),
		DenyRead:      s.cfg.SandboxDenyRead,
		AllowRead:     s.cfg.SandboxAllowRead,
		MCPServers:    m.mcpServers(s),
		WebAllowHosts: s.cfg.Web.AllowHosts,
	}, nil
}

// mcpServers are the MCP servers the Node runs: the user's, and the project's (troupe.toml,
// .mcp.json) when the project is trusted. A broken .mcp.json or a server left out is one
// warning line; the run goes on without it.
func (m *Main) mcpServers(s *settings) []config.MCPServer {
	_, projectFile := config.DefaultPaths(s.root, m.Getenv)
	var fromJSON []config.MCPServer
	if dir := config.UserDir(m.Getenv); dir != "" {
		user, err := config.LoadUserMCPJSON(filepath.Join(dir, config.UserMCPJSONFile), m.Getenv)
		if err != nil {
			fmt.Fprintf(m.Stderr, "troupe: warning: %v\n", err)
		}
		fromJSON = user
	}
	project, err := config.LoadMCPJSON(filepath.Join(s.root, config.MCPJSONFile), m.Getenv)
	if err != nil {
		fmt.Fprintf(m.Stderr, "troupe: warning: %v\n", err)
	}
	fromJSON = append(fromJSON, project...)
	servers, warnings := s.cfg.MCPServers(projectFile, fromJSON)
	for _, w := range warnings {
		fmt.Fprintf(m.Stderr, "troupe: warning: %s\n", w)
	}
	return servers
}

// agentLimits carries [agents] to the Node: max_depth = 0 means no subagents, as the config
// documents it.
func agentLimits(cfg *config.Config) actors.AgentLimits {
	l := actors.AgentLimits{MaxDepth: cfg.Agents.MaxDepth, MaxRunning: cfg.Agents.MaxRunning}
	if l.MaxDepth == 0 {
		l.MaxDepth = actors.NoSubagents
	}
	return l
}

// withNode runs fn with a client of the project's Node: the running one, or one started in this
// process for the call (it stops again after, once sessions started elsewhere on it are done).
func (m *Main) withNode(fn func(c *actors.Client) error) error {
	s, err := m.resolve(nil)
	if err != nil {
		return err
	}
	l, err := m.connect(s)
	if err != nil {
		return err
	}
	defer l.close(m, "")
	return fn(l.client)
}

// ownSessionGrace bounds how long closing waits for this process's own session to record its
// end after being cancelled; the Node's shutdown interrupts it after that.
const ownSessionGrace = 10 * time.Second

// close lets go of the Node. This process's own session is cancelled if it still runs (a
// client that leaves must not leave it waiting for input). An owned Node keeps serving sessions
// other terminals started on it until they finish, then stops.
func (l *link) close(m *Main, own string) {
	defer l.client.Close()
	if l.node == nil {
		return
	}
	if own != "" && slices.Contains(l.node.Active(), own) {
		_ = l.client.Cancel(own, "the client left")
	}
	ownDeadline := time.Now().Add(ownSessionGrace)
	announced := false
	for {
		active := l.node.Active()
		others := slices.DeleteFunc(slices.Clone(active), func(id string) bool { return id == own })
		if len(others) == 0 && (len(active) == 0 || time.Now().After(ownDeadline)) {
			break
		}
		if len(others) > 0 && !announced {
			fmt.Fprintf(m.Stderr, "troupe: waiting for %d session(s) started from other terminals on this node\n", len(others))
			announced = true
		}
		// Short: right after session.finished its actor is still stopping, and every run's
		// exit waits here for it.
		time.Sleep(5 * time.Millisecond)
	}
	closeNode := l.node.Close
	if m.ExitAfterRun {
		closeNode = l.node.CloseForExit
	}
	if err := closeNode(); err != nil {
		fmt.Fprintf(m.Stderr, "troupe: closing node: %v\n", err)
	}
}
