package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/background"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/mcpcli"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// link is this process's connection to the project's Node: attached to one running in another
// process, or owning one it started itself.
type link struct {
	client *actors.Client
	node   *actors.Node // non-nil when this process owns the Node
}

// connect attaches to the project's running Node, or starts one: in the background (troupe
// serve, see NodeProcess) or in this process (nodelink).
// starts says the command starts sessions: then a background node built from another
// configuration is replaced when idle (nodelink.Options.Config).
func (m *Main) connect(s *settings, starts bool) (*link, error) {
	o := nodelink.Options{Root: s.root, NATS: s.cfg.NATS, Log: m.log, Trace: m.trace, Stderr: m.Stderr,
		NodeOptions: func() (actors.NodeOptions, error) { return m.nodeOptions(s) },
		Started:     func(n *actors.Node) { s.wire.Set(n.Store()) }}
	if m.NodeProcess && starts {
		o.Config = m.nodeConfig(s)
	}
	if m.NodeProcess {
		o.Spawn = func() (*actors.NodeInfo, error) {
			return background.Start(background.Options{Root: s.root, NATS: s.cfg.NATS, Sandbox: s.cfg.Sandbox, Idle: background.IdleFrom(m.Getenv)})
		}
	}
	client, node, err := nodelink.Connect(o)
	if err != nil {
		return nil, err
	}
	return &link{client: client, node: node}, nil
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
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			p, name, err := llm.Open(model, llm.Options{BaseURL: baseURL, Getenv: getenv, Memory: s.wire})
			if err != nil {
				return nil, "", err
			}
			return m.trace.Provider(p), name, nil
		},
		OnPhase:       m.trace.PhaseFunc(),
		Environ:       actors.CommandEnviron(os.Environ(), s.cfg.Env.Pass, s.cfg.Env.Set),
		Sandbox:       sb,
		Retry:         retry,
		Agents:        nodelink.AgentLimits(s.cfg),
		NATS:          s.cfg.NATS,
		UserConfigDir: config.UserDir(m.Getenv),
		DenyRead:      s.cfg.SandboxDenyRead,
		AllowRead:     s.cfg.SandboxAllowRead,
		MCPServers:    m.mcpServers(s),
		WebAllowHosts: s.cfg.Web.AllowHosts,
		Lessons:       actors.LessonOptions{Off: !s.cfg.Lessons.Enabled, MaxBytes: s.cfg.Lessons.MaxBytes},
		Hooks:         m.hooks(s),
		Config:        m.nodeConfig(s),
	}, nil
}

// hooks is the project's hook set, each problem with it a warning line.
func (m *Main) hooks(s *settings) *hooks.Set {
	if s.hooksRead { // once per process: its warnings are one line each
		return s.hooks
	}
	s.hooksRead = true
	list, warnings := s.cfg.ProjectHooks(s.root, m.Getenv)
	set, more := hooks.NewSet(list)
	skipped, why := 0, ""
	for _, h := range set.All() {
		if h.Skipped != "" {
			skipped, why = skipped+1, h.Skipped
		}
	}
	if skipped > 0 {
		more = append(more, fmt.Sprintf("%d project hook(s) not run: %s (/hooks lists them)", skipped, why))
	}
	for _, w := range append(warnings, more...) {
		fmt.Fprintf(m.Stderr, "troupe: warning: %s\n", w)
	}
	s.hooks = set
	return set
}

// withNode runs fn with a client of the project's Node: the running one, or one started in this
// process for the call (it stops again after, once sessions started elsewhere on it are done).
func (m *Main) withNode(fn func(c *actors.Client) error) error {
	s, err := m.resolve(nil)
	if err != nil {
		return err
	}
	l, err := m.connect(s, false)
	if err != nil {
		return err
	}
	defer l.close(m, "")
	return fn(l.client)
}

// close lets go of the Node (nodelink.Close); own is this process's own session, if any.
func (l *link) close(m *Main, own string) {
	nodelink.Close(l.client, l.node, own, m.Stderr, m.ExitAfterRun)
}

// mcpServers are the MCP servers the project's node runs, read once per process (their
// configuration's mistakes are one warning line each, on this process's stderr).
func (m *Main) mcpServers(s *settings) []config.MCPServer {
	if s.mcp == nil {
		s.mcp = mcpcli.Servers(s.root, s.cfg, m.Getenv, m.Stderr)
		if s.mcp == nil {
			s.mcp = []config.MCPServer{}
		}
	}
	return s.mcp
}

// nodeConfig fingerprints what a node is built from beyond each session's own start (the
// sandbox, subagent limits, the bus, hidden paths, MCP servers, web hosts, the provider's idle
// timeout): a running node built from another configuration is replaced when idle.
func (m *Main) nodeConfig(s *settings) string {
	data, _ := json.Marshal(struct {
		Sandbox, NATS, UserDir string
		Agents                 actors.AgentLimits
		DenyRead, AllowRead    []string
		MCP                    []config.MCPServer
		Hooks                  []hooks.Hook
		Web                    []string
		IdleTimeoutS           int
	}{s.cfg.Sandbox, s.cfg.NATS, config.UserDir(m.Getenv), nodelink.AgentLimits(s.cfg), s.cfg.SandboxDenyRead, s.cfg.SandboxAllowRead,
		m.mcpServers(s), m.hooks(s).All(), s.cfg.Web.AllowHosts, s.cfg.Provider.IdleTimeoutS})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
