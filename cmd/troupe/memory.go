package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
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
	target := func(need bool) (string, error) {
		switch {
		case user && project && need:
			return "", usageErr("say --user or --project, not both")
		case user && !project:
			return "user", nil
		case project && !user:
			return "project", nil
		case need:
			return "", usageErr("say which memory: --user (your profile) or --project (this project's facts)")
		}
		return "", nil
	}
	run := func(req *messages.MemoryRequest, failIfRefused bool) error {
		return m.withNode(func(client *actors.Client) error {
			reply, err := client.Memory(req)
			if err != nil {
				return err
			}
			if err := ui.Memory(m.Stdout, m.Stderr, reply, asJSON); err != nil {
				return err
			}
			if reply.Refused && failIfRefused {
				return exitCode(1)
			}
			for _, b := range reply.Books {
				if b.Error != "" {
					return exitCode(1) // a damaged or unavailable memory: ui.Memory said so
				}
			}
			return nil
		})
	}
	list := &cobra.Command{
		Use: "list", Short: "Show the memory, entry by entry with sizes (both, or --user / --project)", Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			t, err := target(false)
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
				t, err := target(true)
				if err != nil {
					return err
				}
				req := &messages.MemoryRequest{Action: action, Target: t}
				switch action {
				case "add":
					req.Content = args[0]
				case "remove":
					req.OldText = args[0]
				case "replace":
					req.OldText, req.Content = args[0], args[1]
				}
				if strings.TrimSpace(req.Content+req.OldText) == "" && action != "clear" {
					return usageErr("memory %s: the text is empty", use)
				}
				return run(req, true)
			},
		}
	}
	c.AddCommand(list,
		change("add TEXT", "Remember TEXT (one short fact, in quotes) in --user or --project", "add", 1),
		change("remove OLD_TEXT", "Forget the entry holding OLD_TEXT (a part of exactly one entry)", "remove", 1),
		change("edit OLD_TEXT NEW_TEXT", "Replace the entry holding OLD_TEXT with NEW_TEXT", "replace", 2),
		change("clear", "Forget every entry of --user or --project", "clear", 0))
	return c
}
