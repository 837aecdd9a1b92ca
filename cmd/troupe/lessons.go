package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
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
				list, err := client.Lessons()
				if err != nil {
					return err
				}
				if verb == "list" {
					return ui.Lessons(m.Stdout, m.Stderr, list, asJSON)
				}
				// An id that names no lesson, or several, is a usage error (exit 2), as an
				// unknown session id is: the fix is in the command line.
				l, err := ui.FindLesson(list, args[1])
				if verb == "show" {
					if err != nil {
						return err
					}
					ui.Lesson(m.Stdout, l)
					return nil
				}
				// A damaged record is not listed, yet forget takes it by its id: the Node
				// decides, and its refusal of an id the list lacks too is the same usage error.
				target := args[1]
				if err == nil {
					target = l.ID
				}
				id, ferr := client.ForgetLesson(target)
				if ferr != nil && err != nil {
					return clierr.Usagef("%v", ferr)
				}
				if ferr != nil {
					return ferr
				}
				fmt.Fprintf(m.Stdout, "forgot lesson %s\n", id)
				return nil
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per lesson")
	return c
}
