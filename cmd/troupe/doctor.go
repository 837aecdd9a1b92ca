package main

import (
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/doctor"
)

func (m *Main) doctorCommand() *cobra.Command {
	var f commonFlags
	var repair, probe bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the bus, the store, provider keys and the sandbox, each with a fix hint",
		Long: "Checks the bus, the store, provider keys and the sandbox, each with a fix hint. With\n" +
			"--base-url (or --probe) it also asks the model's endpoint for its model list.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := m.resolve(&f)
			if err != nil {
				return err
			}
			if repair {
				return doctor.Repair(m.Stdout, s.root, s.cfg.NATS, m.log)
			}
			return doctor.Run(m.Stdout, s.root, s.cfg, m.Getenv, probe)
		},
	}
	f.registerSetup(c) // doctor runs no session: turn, repair and prompt flags are not its own
	c.Flags().BoolVar(&probe, "probe", false, "ask the model's endpoint for its model list (a free call)")
	c.Flags().BoolVar(&repair, "repair", false, "back up a damaged store and rebuild it from what verifies")
	return c
}
