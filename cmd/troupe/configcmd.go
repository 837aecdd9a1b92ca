package main

import (
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/configview"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
)

func (m *Main) configCommand() *cobra.Command {
	var f commonFlags
	var initFile bool
	c := &cobra.Command{
		Use:   "config [flags]",
		Short: "Show the configuration in effect and where each value came from; --init writes a commented troupe.toml",
		Long: `Show the configuration in effect, one key a line as TOML, each with the layer that set it:
default < user (~/.config/troupe/config.toml) < project (troupe.toml) < env (TROUPE_*) < flag.
Give the same flags as to run or chat to see what they change. docs/CONFIG.md describes every key.

--init writes a commented troupe.toml at the project root (never over an existing one).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if initFile {
				root, err := setup.ProjectRoot()
				if err != nil {
					return err
				}
				return configview.Init(m.Stdout, root)
			}
			s, err := m.resolve(&f)
			if err != nil {
				return err
			}
			configview.Show(m.Stdout, s.root, s.cfg, m.Getenv)
			return nil
		},
	}
	f.register(c)
	f.registerHorizon(c, "unused by config")
	_ = c.Flags().MarkHidden("goal")
	c.Flags().BoolVar(&initFile, "init", false, "write a commented troupe.toml at the project root")
	return c
}
