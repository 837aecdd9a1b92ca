// Package mcpcli is the logic of `troupe mcp list|add|remove` and of which MCP servers a Node
// runs: project servers in the project's .mcp.json (shared with other tools), the user's in
// mcp.json of the user config dir, and [mcp.servers] in troupe.toml. cmd/troupe keeps only the
// flags.
package mcpcli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/config"
)

// Servers are the MCP servers the Node runs: the user's, and the project's (troupe.toml,
// .mcp.json) when the project is trusted. A broken .mcp.json or a server left out is one
// warning line on stderr; the run goes on without it.
func Servers(root string, cfg *config.Config, getenv func(string) string, stderr io.Writer) []config.MCPServer {
	_, projectFile := config.DefaultPaths(root, getenv)
	var fromJSON []config.MCPServer
	if dir := config.UserDir(getenv); dir != "" {
		user, err := config.LoadUserMCPJSON(filepath.Join(dir, config.UserMCPJSONFile), getenv)
		if err != nil {
			fmt.Fprintf(stderr, "troupe: warning: %v\n", err)
		}
		fromJSON = user
	}
	project, err := config.LoadMCPJSON(filepath.Join(root, config.MCPJSONFile), getenv)
	if err != nil {
		fmt.Fprintf(stderr, "troupe: warning: %v\n", err)
	}
	fromJSON = append(fromJSON, project...)
	servers, warnings := cfg.MCPServers(projectFile, fromJSON)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "troupe: warning: %s\n", w)
	}
	return servers
}

// List prints one line per server: name, transport, command or URL, and where it came from.
func List(w io.Writer, servers []config.MCPServer) {
	if len(servers) == 0 {
		fmt.Fprintln(w, "no MCP servers configured: troupe mcp add NAME COMMAND [ARGS...] (or --transport http NAME URL)")
		return
	}
	for _, sv := range servers {
		target := sv.URL
		if sv.Transport() == config.MCPStdio {
			target = strings.TrimSpace(sv.Command + " " + strings.Join(sv.Args, " "))
		}
		fmt.Fprintf(w, "%-16s %-5s %s  (%s)\n", sv.Name, sv.Transport(), target, sv.Source)
	}
}

// ScopeFile is the JSON file a scope's servers live in: the project's .mcp.json under root, or
// mcp.json in the user config dir.
func ScopeFile(scope, root string, getenv func(string) string) (string, error) {
	switch scope {
	case "project":
		return filepath.Join(root, config.MCPJSONFile), nil
	case "user":
		dir := config.UserDir(getenv)
		if dir == "" {
			return "", clierr.Usagef("no user config dir: set HOME or XDG_CONFIG_HOME")
		}
		return filepath.Join(dir, config.UserMCPJSONFile), nil
	}
	return "", clierr.Usagef("--scope %q: use project or user", scope)
}

// AddRequest is what `troupe mcp add` was given.
type AddRequest struct {
	Transport    string   // "", stdio, http or sse
	Args         []string // NAME COMMAND [ARGS...] or NAME URL
	Env, Headers []string // KEY=VALUE and "Name: value"
}

// Server builds the server an add request describes, or says what is wrong with it.
func (r AddRequest) Server() (config.MCPServer, error) {
	s := config.MCPServer{Name: r.Args[0]}
	switch r.Transport {
	case "", "stdio":
		s.Command, s.Args = r.Args[1], r.Args[2:]
	case "http", "sse":
		if len(r.Args) != 2 {
			return s, clierr.Usagef("a %s server takes NAME URL only", r.Transport)
		}
		s.Type, s.URL = r.Transport, r.Args[1]
	default:
		return s, clierr.Usagef("--transport %q: use stdio, http or sse", r.Transport)
	}
	var err error
	if s.Env, err = pairs(r.Env, "=", "--env"); err != nil {
		return s, err
	}
	if s.Headers, err = pairs(r.Headers, ":", "--header"); err != nil {
		return s, err
	}
	return s, nil
}

// Add writes the server the request describes into path and says so on w.
func Add(w io.Writer, path string, r AddRequest) error {
	s, err := r.Server()
	if err != nil {
		return err
	}
	if err := config.AddMCPJSON(path, s); err != nil {
		return clierr.Usagef("%v", err)
	}
	fmt.Fprintf(w, "added MCP server %s to %s\n", s.Name, path)
	return nil
}

// Remove takes the server name out of path and says so on w; a name that is not there is a
// usage error.
func Remove(w io.Writer, path, name string) error {
	found, err := config.RemoveMCPJSON(path, name)
	if err != nil {
		return err
	}
	if !found {
		return clierr.Usagef("no MCP server %q in %s (troupe mcp list shows where each one is)", name, path)
	}
	fmt.Fprintf(w, "removed MCP server %s from %s\n", name, path)
	return nil
}

func pairs(list []string, sep, flag string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, sep)
		if !ok || strings.TrimSpace(k) == "" {
			return nil, clierr.Usagef("%s %q: write KEY%sVALUE", flag, kv, sep)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}
