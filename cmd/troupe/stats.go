package main

import (
	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"

	"github.com/spf13/cobra"
)

// statsCommand shows what the harness repaired in each model's tool calls in this project.
func (m *Main) statsCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "stats",
		Short: "Show, per model, the share of tool calls troupe repaired in this project and how, and what the server's wire bent",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return m.withNode(func(client *actors.Client) error {
				stats, err := client.RepairStats()
				if err != nil {
					return err
				}
				return ui.RepairStats(m.Stdout, m.Stderr, stats, asJSON)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per model: model, calls, repaired, by_kind, wire")
	return c
}
