package main

import (
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/memorycli"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

// memoryCommand lists and changes the cross-session memory every session starts with: the user
// profile (the user's config dir, shared by every project) and this project's facts. Changes
// pass the memory tool's scan, caps and deduplication (the Node does them).
func (m *Main) memoryCommand() *cobra.Command {
	var user, project, asJSON bool
	c := &cobra.Command{
		Use:   "memory [list|add|remove|edit|clear] [--user|--project]",
		Short: "List, add, edit, remove and clear what every session remembers: your profile (--user) and this project's facts (--project)",
		Args:  cobra.NoArgs,
	}
	c.PersistentFlags().BoolVar(&user, "user", false, "the user profile (your config dir, shared by every project)")
	c.PersistentFlags().BoolVar(&project, "project", false, "this project's facts (the project's store)")
	run := func(req *messages.MemoryRequest, failIfRefused bool) error {
		return m.withNode(func(client *actors.Client) error {
			reply, err := client.Memory(req)
			if err != nil {
				return err
			}
			return memorycli.Show(m.Stdout, m.Stderr, reply, asJSON, failIfRefused)
		})
	}
	list := &cobra.Command{
		Use: "list", Short: "Show the memory, entry by entry with sizes (both, or --user / --project)", Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			t, err := memorycli.Target(user, project, false)
			if err != nil {
				return err
			}
			return run(&messages.MemoryRequest{Action: "list", Target: t}, false)
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print the reply as one JSON object: result, refused, books (target, where, cap, used, entries)")
	c.RunE = list.RunE
	c.Flags().BoolVar(&asJSON, "json", false, "as for list")
	change := func(use, short, action string, nargs int) *cobra.Command {
		return &cobra.Command{
			Use: use, Short: short, Args: cobra.ExactArgs(nargs),
			RunE: func(_ *cobra.Command, args []string) error {
				t, err := memorycli.Target(user, project, true)
				if err != nil {
					return err
				}
				req, err := memorycli.Request(use, action, t, args)
				if err != nil {
					return err
				}
				return run(req, true)
			},
		}
	}
	clear := change("clear", "Forget every entry of --user or --project (asks first; --yes does not)", "clear", 0)
	var yes bool
	clear.Flags().BoolVarP(&yes, "yes", "y", false, "clear without asking")
	clear.PreRunE = func(*cobra.Command, []string) error {
		t, err := memorycli.Target(user, project, true)
		if err != nil || yes {
			return err
		}
		onTerminal := ui.OnTerminal(m.Stdin, m.Stdout, m.Getenv("TERM"))
		return memorycli.ConfirmClear(m.Stdin, m.Stdout, onTerminal, t)
	}
	c.AddCommand(list,
		change("add TEXT", "Remember TEXT (one short fact, in quotes) in --user or --project", "add", 1),
		change("remove OLD_TEXT", "Forget the entry holding OLD_TEXT (a part of exactly one entry)", "remove", 1),
		change("edit OLD_TEXT NEW_TEXT", "Replace the entry holding OLD_TEXT with NEW_TEXT", "replace", 2),
		clear)
	return c
}
