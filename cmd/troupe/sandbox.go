package main

import (
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/tools/sandbox"
)

// sandboxLauncherCommand is the hidden `troupe __sandbox` that applies Landlock to itself and
// then executes the tool's command: Landlock restricts the calling process, so troupe restricts
// a fresh child rather than itself.
func (m *Main) sandboxLauncherCommand() *cobra.Command {
	return &cobra.Command{
		Use:                sandbox.LauncherCommand,
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(c *cobra.Command, args []string) error {
			return exitCode(sandbox.LauncherMain(args))
		},
	}
}
