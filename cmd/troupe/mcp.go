package main

import (
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/mcpcli"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
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
			// warnings (untrusted, broken files) go to stderr
			mcpcli.List(m.Stdout, mcpcli.Servers(s.root, s.cfg, m.Getenv, m.Stderr))
			return nil
		},
	}
}

// mcpScopeFile is the JSON file a scope's servers live in.
func (m *Main) mcpScopeFile(scope string) (string, error) {
	root := ""
	if scope == "project" {
		var err error
		if root, err = setup.ProjectRoot(); err != nil {
			return "", err
		}
	}
	return mcpcli.ScopeFile(scope, root, m.Getenv)
}

func (m *Main) mcpAddCommand() *cobra.Command {
	var scope string
	var r mcpcli.AddRequest
	c := &cobra.Command{
		Use:   "add NAME COMMAND [ARGS...] | add --transport http|sse NAME URL",
		Short: "Add an MCP server to .mcp.json (--scope project, the default) or your own mcp.json (--scope user)",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			path, err := m.mcpScopeFile(scope)
			if err != nil {
				return err
			}
			r.Args = args
			return mcpcli.Add(m.Stdout, path, r)
		},
	}
	c.Flags().StringVarP(&scope, "scope", "s", "project", "project (.mcp.json, needs a trusted project to start) or user")
	c.Flags().StringVarP(&r.Transport, "transport", "t", "stdio", "stdio, http (streamable HTTP) or sse")
	c.Flags().StringArrayVarP(&r.Env, "env", "e", nil, "KEY=VALUE for the server's environment (repeatable)")
	c.Flags().StringArrayVarP(&r.Headers, "header", "H", nil, "\"Name: value\" sent with each HTTP request (repeatable)")
	c.Flags().SetInterspersed(false) // the server's own flags follow its command
	return c
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
			return mcpcli.Remove(m.Stdout, path, args[0])
		},
	}
	c.Flags().StringVarP(&scope, "scope", "s", "project", "project or user")
	return c
}
