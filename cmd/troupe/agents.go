package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/config"
)

func (m *Main) agentsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "agents",
		Short: "List the subagent roles: the built-ins and this project's .troupe/agents/*.md",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			root, err := setup.ProjectRoot()
			if err != nil {
				return err
			}
			roles, err := config.LoadRoles(root)
			if err != nil {
				// A broken role file is a setup mistake, like a bad troupe.toml.
				return usageErr("%v", err)
			}
			if err := ui.Roles(m.Stdout, root, roles); err != nil {
				return err
			}
			fmt.Fprintf(m.Stderr, "custom roles: %s/NAME.md, YAML front matter (description, tools, model, mode, max_turns), then the prompt\n", config.AgentsDir)
			return nil
		},
	}
}
