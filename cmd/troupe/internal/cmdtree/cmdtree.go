// Package cmdtree shapes troupe's cobra command tree: which subcommands a process builds, the
// help command, near-miss names, failures that are not usage errors, and flags that tell "not
// given" from "given empty". cmd/troupe declares the commands; this package holds the rules
// every command shares.
package cmdtree

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/internal/nearest"
)

// Sub is one subcommand by name, built only when it may run.
type Sub struct {
	Name  string
	Build func() *cobra.Command
}

// For builds the subcommands args may run. When the first argument names one, that one is all
// cobra needs to run it (its flags, its help, the root's flags): the other commands' trees,
// flags and closures are not built, which was about 2 % of every process's start (the node's
// and each sandboxed command's launcher included). Otherwise (a flag first, help, completion,
// a prompt or a near miss that suggestions need) every command is built.
func For(args []string, all []Sub) []*cobra.Command {
	for _, s := range all {
		if len(args) > 0 && args[0] == s.Name {
			return []*cobra.Command{s.Build()}
		}
	}
	cmds := make([]*cobra.Command, len(all))
	for i, s := range all {
		cmds[i] = s.Build()
	}
	return cmds
}

// Help is cobra's help command, except that a topic that names no command is a usage error in
// one line (cobra printed the root's help and exited 0): troupe help sesions says what it meant.
func Help() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			cmd, _, err := root.Find(args)
			if err == nil && cmd != nil && (cmd != root || len(args) == 0) {
				cmd.InitDefaultHelpFlag()
				return cmd.Help()
			}
			if len(args) == 0 {
				return clierr.Usagef("%v", err)
			}
			if typo := NotATypo(root, args[0]); typo != nil {
				return typo
			}
			return clierr.Usagef("no command %q: troupe --help lists them", strings.Join(args, " "))
		},
	}
}

// NotATypo refuses a first prompt word that is a near miss of a subcommand's name (troupe
// sesions): the user meant the command, and a model turn would be a costly way to learn it.
func NotATypo(root *cobra.Command, word string) error {
	if strings.ContainsAny(word, " \t") {
		return nil
	}
	if s := root.SuggestionsFor(word); len(s) > 0 {
		meant := nearest.Best(word, s, len(word)+len(s[0])) // cobra lists them by name, not nearness
		return clierr.Usagef("unknown command %q; did you mean '%s'? (to send it as a prompt: troupe -- %s)", word, meant, word)
	}
	return nil
}

// FailuresAreNotUsage makes every command's own error (not a flag or argument error, which
// cobra reports before RunE) an ordinary failure: exit 1, said once, with no help hint — a
// permission or network error is not fixed by reading --help.
func FailuresAreNotUsage(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(c *cobra.Command, args []string) error { return clierr.Failure(run(c, args)) }
	}
	for _, sub := range c.Commands() {
		FailuresAreNotUsage(sub)
	}
}

// OptString is a string flag that tells "not given" from "given empty" (--check "" turns a
// configured check off).
type OptString struct {
	val string
	set bool
}

func (o *OptString) Set(v string) error { o.val, o.set = v, true; return nil }
func (o *OptString) String() string     { return o.val }
func (o *OptString) Type() string       { return "string" }

// Ptr is the value if the flag was given, else nil.
func (o *OptString) Ptr() *string {
	if !o.set {
		return nil
	}
	return &o.val
}
