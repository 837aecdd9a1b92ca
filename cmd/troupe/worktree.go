package main

import (
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/worktreecli"
)

func (m *Main) worktreeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "worktree list | merge NAME | drop NAME",
		Short: "List, merge or drop the git worktrees subagents worked in (.troupe/worktrees)",
		Long: `Subagents spawned with worktree: true work in .troupe/worktrees/NAME on branch troupe/NAME.

  list        show them: commits made, uncommitted changes, merged or not
  merge NAME  merge troupe/NAME into the current branch (a merge commit; never forced)
  drop NAME   remove the worktree and delete its branch, discarding its work`,
		Args: cobra.ArbitraryArgs, // subcommands are parsed by worktreecli.Run
		RunE: func(c *cobra.Command, args []string) error {
			root, err := setup.ProjectRoot()
			if err != nil {
				return err
			}
			return worktreecli.Run(m.Stdout, root, args)
		},
	}
}
