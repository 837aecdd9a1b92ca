package worktree

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// Usage is how the worktree command is called: by troupe worktree and by /worktree in a session.
const Usage = "list, merge NAME or drop NAME"

// UsageError is a worktree command line that cannot run (no subcommand, a missing name).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Run runs one worktree subcommand (args: "list", "merge NAME" or "drop NAME") in the project
// root and writes its report to out. A bad command line is a *UsageError; a merge conflict is a
// *ConflictError (ConflictReport says how to resolve it); ErrInvalidName and ErrNotFound say the
// name is wrong.
func Run(out io.Writer, root string, args []string) error {
	if len(args) == 0 {
		return &UsageError{"worktree needs a subcommand: " + Usage}
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list", "ls":
		if len(rest) != 0 {
			return &UsageError{"worktree list takes no arguments"}
		}
		infos, err := List(root)
		if err != nil {
			return err
		}
		return printWorktrees(out, infos)
	case "merge", "drop":
		if len(rest) != 1 {
			return &UsageError{fmt.Sprintf("worktree %s needs one NAME (see troupe worktree list)", sub)}
		}
		if sub == "drop" {
			if err := Drop(root, rest[0]); err != nil {
				return err
			}
			fmt.Fprintf(out, "dropped worktree %s and branch %s%s\n", rest[0], BranchPrefix, rest[0])
			return nil
		}
		res, err := Merge(root, rest[0])
		if err != nil {
			return err
		}
		printMerge(out, res)
		return nil
	}
	return &UsageError{fmt.Sprintf("unknown worktree subcommand %q: want %s", sub, Usage)}
}

// Explain is the text a person sees for a Run error: a conflict with the ways out, else the
// error itself.
func Explain(root string, err error) string {
	var ce *ConflictError
	if errors.As(err, &ce) {
		return ConflictReport(root, ce)
	}
	return err.Error()
}

// conflictReport lists the conflicting files and the two ways out: resolve in the worktree,
// where the child's work is, so the user's checkout never holds a half-done merge; or drop it.
func ConflictReport(root string, ce *ConflictError) string {
	var b strings.Builder
	fmt.Fprintf(&b, "merging %s into %s would conflict in:\n", ce.Branch, ce.Into)
	for _, f := range ce.Files {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	target := ce.Into
	if target == "HEAD" && ce.IntoCommit != "" {
		target = ce.IntoCommit[:min(len(ce.IntoCommit), 12)] // a detached checkout has no branch to name
	}
	fmt.Fprintf(&b, "the merge was aborted; %s is unchanged. To resolve it in the worktree:\n", ce.Into)
	fmt.Fprintf(&b, "  cd %s && git merge %s   # fix the conflicts, git commit\n", displayPath(filepath.Join(root, filepath.FromSlash(Dir), ce.Name)), target)
	fmt.Fprintf(&b, "  troupe worktree merge %s\n", ce.Name)
	fmt.Fprintf(&b, "or discard the child's work: troupe worktree drop %s", ce.Name)
	return b.String()
}

func printMerge(out io.Writer, res *MergeResult) {
	if res.Commit == "" {
		fmt.Fprintf(out, "nothing to merge: %s has no commits that %s lacks\n", res.Branch, res.Into)
		return
	}
	plural := "s"
	if res.Commits == 1 {
		plural = ""
	}
	fmt.Fprintf(out, "merged %s into %s: %d commit%s, merge commit %s\n", res.Branch, res.Into, res.Commits, plural, res.Commit[:min(len(res.Commit), 12)])
	if res.DiffStat != "" {
		fmt.Fprintln(out, res.DiffStat)
	}
	fmt.Fprintf(out, "the worktree is still there; troupe worktree drop %s removes it\n", res.Name)
}

func printWorktrees(out io.Writer, infos []Info) error {
	if len(infos) == 0 {
		fmt.Fprintln(out, "no troupe worktrees (a subagent spawned with worktree: true gets one)")
		return nil
	}
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tBRANCH\tCOMMITS\tSTATE\tPATH")
	for _, w := range infos {
		branch := w.Branch
		if branch == "" {
			branch = "(detached)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", w.Name, branch, w.Ahead, worktreeState(w), displayPath(w.Path))
	}
	return tw.Flush()
}

// worktreeState says in a few words what the user can do with a worktree.
func worktreeState(w Info) string {
	var parts []string
	switch {
	case w.Missing:
		return "directory missing (drop it)"
	case w.Merged:
		parts = append(parts, "merged")
	case w.Ahead == 0:
		parts = append(parts, "no commits")
	default:
		parts = append(parts, "ready to merge")
	}
	if w.Dirty {
		parts = append(parts, "uncommitted changes")
	}
	return strings.Join(parts, ", ")
}

// displayPath shows the absolute path p relative to the working directory when it lies below
// it (short, and pasteable into cd), else as it is.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}
