package main

import (
	"encoding/json"
	"fmt"

	"github.com/troupe-dev/troupe/actors"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/store"
)

// statsCommand shows what the harness repaired in each model's tool calls in this project.
func (m *Main) statsCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "stats",
		Short: "Show, per model, the share of tool calls troupe repaired in this project and how",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return m.withNode(func(client *actors.Client) error {
				stats, err := client.RepairStats()
				if err != nil {
					return err
				}
				if asJSON {
					enc := json.NewEncoder(m.Stdout)
					for _, r := range stats {
						if err := enc.Encode(r); err != nil {
							return err
						}
					}
					return nil
				}
				if len(stats) == 0 {
					fmt.Fprintln(m.Stderr, "no tool calls counted yet: run a session with troupe run \"task\" or troupe chat")
					return nil
				}
				for _, r := range stats {
					fmt.Fprintln(m.Stdout, turn.RepairLine(store.RepairStats(r)))
				}
				return nil
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per model: model, calls, repaired, by_kind")
	return c
}
