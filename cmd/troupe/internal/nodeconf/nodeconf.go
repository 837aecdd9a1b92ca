// Package nodeconf builds what the project's Node is started with from the resolved
// configuration: its options (providers, sandbox, environment, limits, MCP servers, hooks) and
// the fingerprint that tells a running node built from another configuration.
package nodeconf

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/mcpcli"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// Project is one project's node configuration. The MCP servers and hooks are read once per
// process: their configuration's mistakes are one warning line each on Warn.
type Project struct {
	Root   string
	Cfg    *config.Config
	Getenv func(string) string
	Warn   io.Writer

	mcp   []config.MCPServer
	hooks *hooks.Set
}

// Options are the node options of the project. Providers remember endpoints in wire (set once
// the node has opened its store); trace times the start (nil: not traced).
func (p *Project) Options(log *slog.Logger, trace *starttrace.Trace, wire *llm.MemoryRef) (actors.NodeOptions, error) {
	sb, _, err := Sandbox(p.Cfg.Sandbox)
	if err != nil {
		return actors.NodeOptions{}, err
	}
	retry := llm.DefaultRetryPolicy()
	if p.Cfg.Provider.IdleTimeoutS > 0 {
		retry.IdleTimeout = time.Duration(p.Cfg.Provider.IdleTimeoutS) * time.Second
	}
	scripts := &llm.ScriptCache{} // a provider per session: a script is parsed once, not per child
	return actors.NodeOptions{
		Root: p.Root,
		Log:  log,
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			prov, name, err := llm.Open(model, llm.Options{BaseURL: baseURL, Getenv: getenv, Memory: wire, Scripts: scripts})
			if err != nil {
				return nil, "", err
			}
			return trace.Provider(prov), name, nil
		},
		OnPhase:        trace.PhaseFunc(),
		Environ:        actors.CommandEnviron(os.Environ(), p.Cfg.Env.Pass, p.Cfg.Env.Set),
		Sandbox:        sb,
		Retry:          retry,
		Agents:         nodelink.AgentLimits(p.Cfg),
		NATS:           p.Cfg.NATS,
		BusCredentials: nodelink.BusCredentials(p.Cfg),
		Project:        p.Cfg.Project.ID,
		UserConfigDir:  config.UserDir(p.Getenv),
		DenyRead:       p.Cfg.SandboxDenyRead,
		AllowRead:      p.Cfg.SandboxAllowRead,
		MCPServers:     p.MCPServers(),
		WebAllowHosts:  p.Cfg.Web.AllowHosts,
		WebSearch:      p.WebSearch(),
		Lessons:        actors.LessonOptions{Off: !p.Cfg.Lessons.Enabled, MaxBytes: p.Cfg.Lessons.MaxBytes},
		Hooks:          p.Hooks(),
		Config:         p.Fingerprint(),
		// Subagents go to workers only where [agents] placement asks; the queue opens then.
		Dispatch: actors.DispatchOptions{Open: actors.JetStreamQueue, Code: actors.CodeOptions{Root: p.Root, Remote: p.Cfg.Workers.Remote, Log: log}},
	}, nil
}

// Hooks is the project's hook set, each problem with it a warning line.
func (p *Project) Hooks() *hooks.Set {
	if p.hooks != nil {
		return p.hooks
	}
	list, warnings := p.Cfg.ProjectHooks(p.Root, p.Getenv)
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
		fmt.Fprintf(p.Warn, "troupe: warning: %s\n", w)
	}
	p.hooks = set
	return set
}

// WebSearch is the configured search provider with its key; nil when nothing is configured.
// A configuration that cannot work (no key, no provider) is said in one line, and the Node
// leaves web_search out.
func (p *Project) WebSearch() *tools.SearchConfig {
	w := p.Cfg.Web
	if w.SearchProvider == "" && w.SearchURL == "" && w.SearchKeyEnv == "" {
		return nil
	}
	cfg := tools.SearchConfig{Provider: w.SearchProvider, URL: w.SearchURL, KeyEnv: w.SearchKeyEnv, Server: w.SearchServer, Tool: w.SearchTool}
	if cfg.ViaMCP() {
		if err := cfg.Check(); err != nil {
			fmt.Fprintf(p.Warn, "troupe: %v; web_search is off\n", err)
		} else if !slices.ContainsFunc(p.MCPServers(), func(s config.MCPServer) bool { return s.Name == cfg.Server }) {
			fmt.Fprintf(p.Warn, "troupe: web_search: search_server %q is not a running MCP server (troupe mcp list shows them); web_search is off\n", cfg.Server)
		}
		return &cfg
	}
	if cfg.KeyEnv == "" && w.SearchProvider != "searxng" {
		cfg.KeyEnv = strings.ToUpper(w.SearchProvider) + "_API_KEY"
	}
	if cfg.KeyEnv != "" {
		cfg.Key = p.Getenv(cfg.KeyEnv)
	}
	if err := cfg.Check(); err != nil {
		fmt.Fprintf(p.Warn, "troupe: %v; web_search is off\n", err)
	}
	return &cfg
}

// MCPServers are the MCP servers the project's node runs.
func (p *Project) MCPServers() []config.MCPServer {
	if p.mcp == nil {
		p.mcp = mcpcli.Servers(p.Root, p.Cfg, p.Getenv, p.Warn)
		if p.mcp == nil {
			p.mcp = []config.MCPServer{}
		}
	}
	return p.mcp
}

// Fingerprint sums what a node is built from beyond each session's own start (the sandbox,
// subagent limits, the bus, hidden paths, MCP servers, hooks, web hosts, the provider's idle
// timeout): a running node built from another configuration is replaced when idle.
func (p *Project) Fingerprint() string {
	data, _ := json.Marshal(struct {
		Sandbox, NATS, UserDir string
		Agents                 actors.AgentLimits
		DenyRead, AllowRead    []string
		MCP                    []config.MCPServer
		Hooks                  []hooks.Hook
		Web                    []string
		IdleTimeoutS           int
		Search                 []string
		Bus                    []string
	}{p.Cfg.Sandbox, p.Cfg.NATS, config.UserDir(p.Getenv), nodelink.AgentLimits(p.Cfg), p.Cfg.SandboxDenyRead, p.Cfg.SandboxAllowRead,
		p.MCPServers(), p.Hooks().All(), p.Cfg.Web.AllowHosts, p.Cfg.Provider.IdleTimeoutS,
		[]string{p.Cfg.Web.SearchProvider, p.Cfg.Web.SearchURL, p.Cfg.Web.SearchKeyEnv, p.Cfg.Web.SearchServer, p.Cfg.Web.SearchTool},
		[]string{p.Cfg.Project.ID, p.Cfg.BusSummary()}})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
