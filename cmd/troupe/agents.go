package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/config"
)

func (m *Main) agentsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "agents",
		Short: "List the subagent roles: the built-ins and this project's .troupe/agents/*.md",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			root, err := projectRoot()
			if err != nil {
				return err
			}
			roles, err := config.LoadRoles(root)
			if err != nil {
				// A broken role file is a setup mistake, like a bad troupe.toml.
				return usageErr("%v", err)
			}
			if err := printRoles(m.Stdout, root, roles); err != nil {
				return err
			}
			fmt.Fprintf(m.Stderr, "custom roles: %s/NAME.md, YAML front matter (description, tools, model, mode, max_turns), then the prompt\n", config.AgentsDir)
			return nil
		},
	}
}

// printRoles writes one line per role: what a user needs to pick one or to check an override.
func printRoles(w io.Writer, root string, roles []config.Role) error {
	builtins := map[string]bool{}
	for _, r := range config.BuiltinRoles() {
		builtins[r.Name] = true
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tMODEL\tTOOLS\tDESCRIPTION")
	for _, r := range roles {
		source := r.Source
		if source != config.SourceBuiltin {
			if rel, err := filepath.Rel(root, source); err == nil && !strings.HasPrefix(rel, "..") {
				source = rel
			}
			if builtins[r.Name] {
				source += " (overrides builtin)"
			}
		}
		model := r.Model
		if model == "" {
			model = "parent's"
		}
		tools := "parent's tools"
		if r.Tools != nil {
			list := slices.Clone(r.Tools)
			if i := slices.Index(list, "bash"); i >= 0 && r.PlanSafeBash {
				list[i] = "bash (plan-safe)"
			}
			tools = strings.Join(list, ", ")
		}
		desc := r.Description
		if desc == "" {
			desc = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, source, model, tools, desc)
	}
	return tw.Flush()
}
