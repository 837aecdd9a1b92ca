package main

import (
	"encoding/json"
	"fmt"
	"github.com/troupe-dev/troupe/actors"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/store"
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
					if r.Calls > 0 || len(r.ByKind) > 0 {
						fmt.Fprintln(m.Stdout, turn.RepairLine(store.RepairStats(r)))
					}
					if line := wireLine(r.Model, r.Wire); line != "" {
						fmt.Fprintln(m.Stdout, line)
					}
				}
				return nil
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per model: model, calls, repaired, by_kind, wire")
	return c
}

// wireLine says how many replies of model needed each leniency of the provider wire, most
// frequent first: "ollama/qwen3: wire quirks read leniently: 9 no_usage, 3 arguments_object".
// "" for none.
func wireLine(model string, counts map[string]int) string {
	if len(counts) == 0 {
		return ""
	}
	names := make([]string, 0, len(counts))
	for q := range counts {
		names = append(names, q)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, q := range names {
		parts[i] = fmt.Sprintf("%d %s", counts[q], q)
	}
	return fmt.Sprintf("%s: wire quirks read leniently: %s", model, strings.Join(parts, ", "))
}
