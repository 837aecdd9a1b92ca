// Package worktreecli runs troupe worktree's subcommands (list, merge, drop) on the worktrees
// subagents worked in, mapping what went wrong to the CLI's exit codes.
package worktreecli

import (
	"errors"
	"io"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// Run runs one worktree subcommand with exit codes: 2 for a bad command line or an unknown
// name, 1 when the operation failed or conflicted (a conflict says how to resolve it).
func Run(out io.Writer, root string, args []string) error {
	err := worktree.Run(out, root, args)
	var ue *worktree.UsageError
	var ce *worktree.ConflictError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ue):
		return clierr.Usagef("%s", ue.Msg)
	case errors.Is(err, worktree.ErrInvalidName), errors.Is(err, worktree.ErrNotFound):
		return clierr.Usagef("%v", err)
	case errors.As(err, &ce):
		return &clierr.Error{Code: clierr.Failed, Msg: worktree.ConflictReport(root, ce)}
	}
	return &clierr.Error{Code: clierr.Failed, Msg: err.Error()}
}
