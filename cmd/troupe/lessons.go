package main

import (
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
)

// lessonsCommand lists, shows and forgets the project's lessons (docs/ARCHITECTURE.md, "The
// learning layer").
func (m *Main) lessonsCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "lessons [list | show ID | forget ID]",
		Short: "List, show or forget what troupe learnt in this project from failures followed by their fix",
		Args:  cobra.MaximumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			verb := "list"
			if len(args) > 0 {
				verb = args[0]
			}
			switch {
			case verb == "list" && len(args) <= 1:
			case (verb == "show" || verb == "forget") && len(args) == 2:
			case verb == "show" || verb == "forget":
				return usageErr("lessons %s: give the lesson's id (troupe lessons list shows them)", verb)
			default:
				return usageErr("lessons %q: use list, show ID or forget ID", args)
			}
			return m.withNode(func(client *actors.Client) error {
				return ui.LessonsVerb(m.Stdout, m.Stderr, client, verb, args[min(1, len(args)):], asJSON)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per lesson")
	return c
}
