package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// MCPServer is one configured MCP server: a command run over stdio, or a URL spoken to over
// streamable HTTP ("http") or the older SSE transport ("sse"). The toml tags are the keys of
// [mcp.servers.NAME]; .mcp.json uses the same names (see mcpjson.go).
type MCPServer struct {
	Name    string            `toml:"-"`
	Type    string            `toml:"type"` // "stdio" (the default with a command), "http" or "sse"
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	Cwd     string            `toml:"cwd"`
	URL     string            `toml:"url"`
	Headers map[string]string `toml:"headers"`
	// Risk overrides the risk of the server's tools that do not declare readOnlyHint: "read",
	// "workspace_write", "exec" (the default) or "network".
	Risk string `toml:"risk"`
	// Start is "lazy" (the default: on first use) or "session" (when the Node starts).
	Start string `toml:"start"`
	// TimeoutS bounds one tool call in seconds; 0: 120.
	TimeoutS int `toml:"timeout_s"`
	// Writable lists more paths the server's process may write (credential caches and the like).
	Writable []string `toml:"writable"`
	// Disabled keeps the server configured but not started.
	Disabled bool `toml:"disabled"`
	// Source is the file the server came from (for messages); Project says it came with the
	// repository (troupe.toml or .mcp.json), so it starts only in a trusted project.
	Source  string `toml:"-"`
	Project bool   `toml:"-"`
}

// MCP is the [mcp] table.
type MCP struct {
	Servers map[string]MCPServer `toml:"servers"`
}

// The transports a server may name.
const (
	MCPStdio = "stdio"
	MCPHTTP  = "http"
	MCPSSE   = "sse"
)

var mcpServerName = lazyre.New(`^[a-zA-Z0-9_-]{1,32}$`)

// Transport is the server's transport, "stdio" when it names a command and no type.
func (s MCPServer) Transport() string {
	switch t := strings.ToLower(strings.TrimSpace(s.Type)); t {
	case "", "stdio":
		if s.Command == "" && s.URL != "" {
			return MCPHTTP
		}
		return MCPStdio
	case "streamable-http", "streamable_http", "streamablehttp":
		return MCPHTTP
	default:
		return t
	}
}

// Check says what is wrong with the server's settings, in one line, or nil.
func (s MCPServer) Check() error {
	where := fmt.Sprintf("%s: mcp server %q", s.Source, s.Name)
	if !mcpServerName.MatchString(s.Name) {
		return fmt.Errorf("%s: the name must be 1-32 letters, digits, _ or -", where)
	}
	switch s.Transport() {
	case MCPStdio:
		if strings.TrimSpace(s.Command) == "" {
			return fmt.Errorf("%s: no command; set command (and args), or type and url", where)
		}
	case MCPHTTP, MCPSSE:
		if !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
			return fmt.Errorf("%s: url %q must start with http:// or https://", where, s.URL)
		}
	default:
		return fmt.Errorf("%s: unknown type %q; use stdio, http or sse", where, s.Type)
	}
	switch s.Risk {
	case "", "read", "workspace_write", "exec", "network":
	default:
		return fmt.Errorf("%s: unknown risk %q; use read, workspace_write, exec or network", where, s.Risk)
	}
	switch s.Start {
	case "", "lazy", "session":
	default:
		return fmt.Errorf("%s: unknown start %q; use lazy or session", where, s.Start)
	}
	if s.TimeoutS < 0 {
		return fmt.Errorf("%s: timeout_s must not be negative", where)
	}
	return nil
}

// MCPServers are the servers to run, by name: the user's (always), then the project's
// troupe.toml and .mcp.json (only when the project is trusted; otherwise one warning each
// saying how to trust it). A later definition of a name replaces an earlier one; a server that
// fails Check is left out with a warning. jsonServers are the servers of .mcp.json
// (LoadMCPJSON), projectFile is the project's troupe.toml.
func (c *Config) MCPServers(projectFile string, jsonServers []MCPServer) (servers []MCPServer, warnings []string) {
	byName := map[string]MCPServer{}
	all := append(sortedServers(c.MCP.Servers), jsonServers...)
	trusted := c.trusts(projectFile)
	for _, s := range all {
		if s.Project && !trusted {
			warnings = append(warnings, fmt.Sprintf("%s: mcp server %q not started: project MCP servers start only in trusted projects; to allow them, add %q to trusted_projects in your user config",
				s.Source, s.Name, projectDir(projectFile)))
			continue
		}
		if err := s.Check(); err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		if s.Disabled {
			delete(byName, s.Name)
			continue
		}
		byName[s.Name] = s
	}
	for _, s := range byName {
		servers = append(servers, s)
	}
	slices.SortFunc(servers, func(a, b MCPServer) int { return strings.Compare(a.Name, b.Name) })
	return servers, warnings
}

func sortedServers(m map[string]MCPServer) []MCPServer {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]MCPServer, 0, len(m))
	for _, n := range names {
		s := m[n]
		s.Name = n
		out = append(out, s)
	}
	return out
}

// markProjectServers records that the layer's servers came with the repository.
func (l *layer) markProjectServers(project bool) {
	for name, s := range l.MCP.Servers {
		s.Project = project
		l.MCP.Servers[name] = s
	}
}

func projectDir(projectFile string) string { return filepath.Dir(projectFile) }
