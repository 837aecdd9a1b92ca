package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/tools/worktree"
)

func (m *Main) worktreeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "worktree list | merge NAME | drop NAME",
		Short: "List, merge or drop the git worktrees subagents worked in (.troupe/worktrees)",
		Long: `Subagents spawned with worktree: true work in .troupe/worktrees/NAME on branch troupe/NAME.

  list        show them: commits made, uncommitted changes, merged or not
  merge NAME  merge troupe/NAME into the current branch (a merge commit; never forced)
  drop NAME   remove the worktree and delete its branch, discarding its work`,
		Args: cobra.ArbitraryArgs, // subcommands are parsed by runWorktree, shared with the chat REPL
		RunE: func(c *cobra.Command, args []string) error {
			root, err := setup.ProjectRoot()
			if err != nil {
				return err
			}
			return runWorktree(m.Stdout, root, args)
		},
	}
}

// worktreeErr sets the exit code for a worktree error and, for a conflict, says how to resolve.
func worktreeErr(root string, err error) error {
	var ce *worktree.ConflictError
	switch {
	case errors.Is(err, worktree.ErrInvalidName), errors.Is(err, worktree.ErrNotFound):
		return usageErr("%v", err)
	case errors.As(err, &ce):
		return &exitError{Code: exitFailed, Msg: worktree.ConflictReport(root, ce)}
	}
	return &exitError{Code: exitFailed, Msg: err.Error()}
}

// runWorktree runs one worktree subcommand for troupe worktree and the TUI, with exit codes: 2 for
// a bad command line or an unknown name, 1 when the operation failed or conflicted.
func runWorktree(out io.Writer, root string, args []string) error {
	err := worktree.Run(out, root, args)
	var ue *worktree.UsageError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ue):
		return usageErr("%s", ue.Msg)
	}
	return worktreeErr(root, err)
}
