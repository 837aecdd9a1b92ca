package main

import (
	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"

	"github.com/spf13/cobra"
)

func (m *Main) sessionsCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "sessions",
		Short: "List this project's sessions, newest first",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return m.withNode(func(client *actors.Client) error {
				metas, err := client.Sessions()
				if err != nil {
					return err
				}
				return ui.SessionList(m.Stdout, m.Stderr, metas, asJSON)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per session: id, status, model, task, turns, tokens, times")
	return c
}

func (m *Main) logCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "log ID",
		Short: "Show a session's stored log: every message, tool call and result",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return m.withNode(func(client *actors.Client) error {
				id, err := nodelink.SessionByID(client, args[0])
				if err != nil {
					return err
				}
				meta, entries, err := client.Log(id)
				if err != nil {
					return usageErr("log %s: %v (see 'troupe sessions')", args[0], err)
				}
				ui.SessionLog(m.Stdout, meta, entries)
				return nil
			})
		},
	}
}
