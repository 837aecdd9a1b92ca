package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/internal/textfmt"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/messages"
)

func (m *Main) attachCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "attach ID",
		Short: "Follow a session started elsewhere until it finishes; the exit code tells the outcome as for run (Ctrl-C detaches)",
		Long: "Prints what the session already did (from its stored log) as troupe run does, then its live\n" +
			"events until it finishes, and exits with its outcome: 0 done, 1 failed, 2 setup error,\n" +
			"130 interrupted. Ctrl-C detaches: the session goes on. ID may be a unique suffix of the id.\n" +
			"With --json it prints the live event envelopes (the stored log is not replayed as events).",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return m.follow(c.Context(), args[0], asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the session's live events as NDJSON envelopes on stdout")
	return c
}

// follow attaches to one session: the stored log first, then live events until it finishes.
// Events are subscribed to before the log is read, and those the log already covers are left
// out, so nothing is lost or printed twice between the two.
func (m *Main) follow(ctx context.Context, id string, asJSON bool) error {
	s, err := m.resolve(nil)
	if err != nil {
		return err
	}
	l, err := m.connect(s, false)
	if err != nil {
		return err
	}
	defer l.close(m, "") // never cancels the session: attaching only looks
	// Ctrl-C detaches from here on, also while the log is replayed.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	if id, err = nodelink.SessionByID(l.client, id); err != nil {
		return err
	}
	p := ui.NewPrinter(m.Stdout, asJSON).WithApprovals()
	f := ui.NewFollower(p, asJSON)
	sub, err := l.client.SubscribeRaw(messages.SessionEventsSubject(l.client.NS, id), f.Event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	p.FollowSubagents(id) // their approval requests wait for someone too
	kids, err := l.client.SubscribeRaw(messages.ProjectEventsSubject(l.client.NS), p.SubagentEvent)
	if err != nil {
		return err
	}
	defer kids.Unsubscribe()
	meta, entries, err := l.client.Log(id)
	if err != nil {
		return usageErr("attach %s: %v (see 'troupe sessions')", id, err)
	}
	running := meta.Status == string(messages.StatusRunning)
	var pending []*messages.ApprovalRequestedData
	if running {
		st, err := l.client.Status(id)
		if running = err == nil; running {
			pending = st.Pending
		}
	}
	fmt.Fprintf(m.Stderr, "troupe: session %s · %s · %s\n", id, ui.AttachState(meta.Status, running), textfmt.ClipLine(meta.Task, 100))
	var printed ui.Replayed
	if !asJSON {
		printed = ui.ReplayLog(m.Stdout, entries)
		for _, ask := range pending { // asked before we subscribed: still waiting
			fmt.Fprintln(m.Stdout, ui.ApprovalWaiting(ask, ""))
		}
	}
	f.GoLive(printed)
	if !running {
		select {
		case fin := <-f.Finished(): // it finished while we looked
			return clierr.Outcome(fin)
		default:
		}
		if meta, _, err = l.client.Log(id); err != nil {
			return usageErr("attach %s: %v", id, err)
		}
		return storedOutcome(m, meta)
	}
	return m.followLive(ctx, l, id, f.Finished(), sigs)
}

// followLive waits for the session to finish. Ctrl-C (or SIGTERM) detaches without touching
// the session.
func (m *Main) followLive(ctx context.Context, l *link, id string, finished <-chan *messages.SessionFinishedData, sigs <-chan os.Signal) error {
	gone := func() string {
		if !l.client.Alive() {
			return nodelink.Gone(l.client, id)
		}
		return ""
	}
	fin, why, detached := ui.Follow(ctx, ui.Wait{Session: l.client, ID: id, Finished: finished, Signals: sigs, Gone: gone, Err: m.Stderr})
	switch {
	case detached:
		return &exitError{Code: exitInterrupted,
			Msg: fmt.Sprintf("detached: session %s keeps running (troupe attach %s follows it again)", id, id)}
	case why != "":
		return &exitError{Code: exitFailed, Msg: why}
	}
	return clierr.Outcome(fin)
}

// storedOutcome reports how a session that is no longer running ended, from its stored meta,
// with the exit code run would have given.
func storedOutcome(m *Main, meta *messages.SessionInfo) error {
	return clierr.Outcome(ui.StoredOutcome(m.Stderr, meta))
}
