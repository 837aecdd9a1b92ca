package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
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
	ctx, stop := signalContext(ctx)
	defer stop()
	w := ui.NewWatcher(m.Stdout, session, asJSON, m.Getenv("TERM"))
	if w.Tree() {
		drawn := make(chan struct{})
		go func() { defer close(drawn); w.DrawLoop(ctx) }()
		defer func() { stop(); <-drawn }()
	}
	say := func(msg string) { w.Say(m.Stderr, msg) }
	waiting := false
	for ctx.Err() == nil {
		info, err := actors.FindNode(s.root, s.cfg.NATS)
		if err != nil {
			if !waiting {
				say(fmt.Sprintf("waiting for a troupe node in %s (start one with troupe serve, run or chat)", s.root))
				waiting = true
			}
			sleepCtx(ctx, 200*time.Millisecond)
			continue
		}
		waiting = false
		if err := followNode(ctx, w, info, say); err != nil {
			return err
		}
	}
	return nil
}

// followNode shows the events of one Node until it goes away or ctx ends.
func followNode(ctx context.Context, w *ui.Watcher, info *actors.NodeInfo, say func(string)) error {
	nc, err := actors.Dial(info.URL, info.Token, "troupe-watch")
	if err != nil {
		sleepCtx(ctx, 200*time.Millisecond) // it may be going away: look again
		return nil
	}
	client := actors.NewClient(nc, info.NS, info.Node)
	defer client.Close()
	subscribed := time.Now()
	sub, err := client.SubscribeRaw(messages.ProjectEventsSubject(info.NS), w.Event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	say(fmt.Sprintf("watching node %s (pid %d)", info.Node, info.PID))
	if !w.JSON() {
		w.Seed(client, subscribed)
	}
	for ctx.Err() == nil && client.Alive() && actors.ProcessAlive(info.PID) {
		sleepCtx(ctx, 200*time.Millisecond)
	}
	if !actors.ProcessAlive(info.PID) {
		w.NodeGone()
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
