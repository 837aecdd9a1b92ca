package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/config"
)

// mcpCommand lists, adds and removes MCP servers the way `claude mcp` does: project servers in
// the project's .mcp.json (shared with other tools), the user's in mcp.json of the user config
// dir.
func (m *Main) mcpCommand() *cobra.Command {
	c := &cobra.Command{Use: "mcp", Short: "List, add and remove MCP servers (.mcp.json, your mcp.json, [mcp.servers] in troupe.toml)"}
	c.AddCommand(m.mcpListCommand(), m.mcpAddCommand(), m.mcpRemoveCommand())
	return c
}

func (m *Main) mcpListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the MCP servers this project runs, and those it leaves out and why",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := m.resolve(nil)
			if err != nil {
				return err
			}
			servers := m.mcpServers(s) // warnings (untrusted, broken files) go to stderr
			if len(servers) == 0 {
				fmt.Fprintln(m.Stdout, "no MCP servers configured: troupe mcp add NAME COMMAND [ARGS...] (or --transport http NAME URL)")
				return nil
			}
			for _, sv := range servers {
				target := sv.URL
				if sv.Transport() == config.MCPStdio {
					target = strings.TrimSpace(sv.Command + " " + strings.Join(sv.Args, " "))
				}
				fmt.Fprintf(m.Stdout, "%-16s %-5s %s  (%s)\n", sv.Name, sv.Transport(), target, sv.Source)
			}
			return nil
		},
	}
}

// mcpScopeFile is the JSON file a scope's servers live in.
func (m *Main) mcpScopeFile(scope string) (string, error) {
	switch scope {
	case "project":
		root, err := projectRoot()
		if err != nil {
			return "", err
		}
		return filepath.Join(root, config.MCPJSONFile), nil
	case "user":
		dir := config.UserDir(m.Getenv)
		if dir == "" {
			return "", usageErr("no user config dir: set HOME or XDG_CONFIG_HOME")
		}
		return filepath.Join(dir, config.UserMCPJSONFile), nil
	}
	return "", usageErr("--scope %q: use project or user", scope)
}

func (m *Main) mcpAddCommand() *cobra.Command {
	var scope, transport string
	var envs, headers []string
	c := &cobra.Command{
		Use:   "add NAME COMMAND [ARGS...] | add --transport http|sse NAME URL",
		Short: "Add an MCP server to .mcp.json (--scope project, the default) or your own mcp.json (--scope user)",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			path, err := m.mcpScopeFile(scope)
			if err != nil {
				return err
			}
			s := config.MCPServer{Name: args[0]}
			switch transport {
			case "", "stdio":
				s.Command, s.Args = args[1], args[2:]
			case "http", "sse":
				if len(args) != 2 {
					return usageErr("a %s server takes NAME URL only", transport)
				}
				s.Type, s.URL = transport, args[1]
			default:
				return usageErr("--transport %q: use stdio, http or sse", transport)
			}
			if s.Env, err = pairs(envs, "=", "--env"); err != nil {
				return err
			}
			if s.Headers, err = pairs(headers, ":", "--header"); err != nil {
				return err
			}
			if err := config.AddMCPJSON(path, s); err != nil {
				return usageErr("%v", err)
			}
			fmt.Fprintf(m.Stdout, "added MCP server %s to %s\n", s.Name, path)
			return nil
		},
	}
	c.Flags().StringVarP(&scope, "scope", "s", "project", "project (.mcp.json, needs a trusted project to start) or user")
	c.Flags().StringVarP(&transport, "transport", "t", "stdio", "stdio, http (streamable HTTP) or sse")
	c.Flags().StringArrayVarP(&envs, "env", "e", nil, "KEY=VALUE for the server's environment (repeatable)")
	c.Flags().StringArrayVarP(&headers, "header", "H", nil, "\"Name: value\" sent with each HTTP request (repeatable)")
	c.Flags().SetInterspersed(false) // the server's own flags follow its command
	return c
}

func pairs(list []string, sep, flag string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, sep)
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usageErr("%s %q: write KEY%sVALUE", flag, kv, sep)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

func (m *Main) mcpRemoveCommand() *cobra.Command {
	var scope string
	c := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove an MCP server from .mcp.json (--scope project) or your mcp.json (--scope user)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path, err := m.mcpScopeFile(scope)
			if err != nil {
				return err
			}
			found, err := config.RemoveMCPJSON(path, args[0])
			if err != nil {
				return err
			}
			if !found {
				return usageErr("no MCP server %q in %s (troupe mcp list shows where each one is)", args[0], path)
			}
			fmt.Fprintf(m.Stdout, "removed MCP server %s from %s\n", args[0], path)
			return nil
		},
	}
	c.Flags().StringVarP(&scope, "scope", "s", "project", "project or user")
	return c
}
