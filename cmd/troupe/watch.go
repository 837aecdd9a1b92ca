package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodewatch"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
)

func (m *Main) watchCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "watch [session]",
		Short: "Follow every session and agent of this project live, from any terminal (Ctrl-C to stop)",
		Long: "Draws the live agent tree of this project's sessions: each agent's role, state, turns, tokens\n" +
			"and time, subagents under their parent. Piped, it prints one line per state change; with\n" +
			"--json, the raw event envelopes. A session id limits it to that session and its agents.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			session := ""
			if len(args) == 1 {
				session = args[0]
			}
			return m.watch(c.Context(), session, asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the raw event envelopes as NDJSON")
	return c
}

// watch subscribes to the project's events on the running Node and shows them. It waits for a
// Node to appear, and for the next one when it goes away, so it can be left open.
func (m *Main) watch(ctx context.Context, session string, asJSON bool) error {
	s, err := m.resolve(nil)
	if err != nil {
		return err
	}
	if session, err = nodelink.WatchedSession(s.root, s.cfg, session); err != nil {
		return err
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	w := ui.NewWatcher(m.Stdout, session, asJSON, m.Getenv("TERM"))
	defer w.Close()
	if w.Tree() {
		drawn := make(chan struct{})
		go func() { defer close(drawn); w.DrawLoop(ctx) }()
		defer func() { stop(); <-drawn }()
	}
	return nodewatch.Run(ctx, w, s.root, s.cfg.NATS, nodelink.BusCredentials(s.cfg), func(msg string) { w.Say(m.Stderr, msg) })
}
