package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/prompt"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

type runFlags struct {
	commonFlags
	json, yes bool
	detach    bool // submit to the project's node and leave (see detach.go)
}

func (m *Main) runCommand() *cobra.Command {
	var f runFlags
	c := &cobra.Command{
		Use:   "run [flags] [task words… | -]",
		Short: "Run one task headless; the exit code tells the outcome (0 done, 1 failed, 2 setup error, 130 interrupted)",
		Long: `Run one task headless; the exit code tells the outcome (0 done, 1 failed, 2 setup error, 130 interrupted).

The task is the words after the flags, as one prompt (troupe run fix the failing test). With no
words, or "-", the task is read from stdin (a terminal is never waited on). With words and a piped
stdin, stdin is appended to the task as context (git diff | troupe run "review this"). Stdin is
taken up to 256 KiB of UTF-8 text; more, or binary data, is refused with one line (exit 2).`,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			task, err := prompt.Task(args, m.Stdin, m.Stderr)
			if err != nil {
				return err
			}
			if f.detach {
				return m.runDetached(&f, task)
			}
			return m.runSession(c.Context(), &f, &messages.StartSession{ID: newSessionID(), Task: task, Yes: f.yes})
		},
	}
	f.register(c)
	f.registerHorizon(c, "the objective: the run is done only once the model completes it with evidence (get_goal, update_goal)")
	c.Flags().BoolVar(&f.json, "json", false, "print the session's events as NDJSON envelopes on stdout")
	c.Flags().BoolVarP(&f.yes, "yes", "y", false, "answer every approval request with allow (without it, a call that needs approval is denied)")
	c.Flags().BoolVar(&f.detach, "detach", false, "submit the task to the project's node (started in the background if none runs), print the session id and exit")
	return c
}

func (m *Main) resumeCommand() *cobra.Command {
	var f runFlags
	c := &cobra.Command{
		Use:   "resume ID [task]",
		Short: "Continue a stored session (after a crash, a kill or a finished run), optionally with a new task; on a terminal it opens the chat",
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			start := &messages.StartSession{ID: args[0], Resume: true, Yes: f.yes}
			if len(args) == 2 {
				start.Task = args[1]
			}
			if m.onTerminal() && !f.json && !f.yes { // a person at a terminal: the chat, reopened
				return m.chat(c.Context(), &f.commonFlags, chatOpen{resume: start.ID, task: start.Task})
			}
			return m.runSession(c.Context(), &f, start)
		},
	}
	f.register(c)
	f.registerHorizon(c, "set a new objective for the session (it keeps its stored goal otherwise)")
	c.Flags().BoolVar(&f.json, "json", false, "print the session's events as NDJSON envelopes on stdout")
	c.Flags().BoolVarP(&f.yes, "yes", "y", false, "answer every approval request with allow (without it, a call that needs approval is denied)")
	return c
}

// runSession starts a headless session on the project's Node, prints its events until it
// finishes, and turns the outcome into the exit code. Ctrl-C cancels the turn (the session
// records itself as interrupted and stays resumable); a second Ctrl-C leaves at once.
func (m *Main) runSession(ctx context.Context, f *runFlags, start *messages.StartSession) error {
	s, err := m.resolve(&f.commonFlags)
	if err != nil {
		return err
	}
	l, err := m.connect(s, true)
	if err != nil {
		return err
	}
	defer l.close(m, start.ID)
	if err := m.sessionStart(s, l.client, &f.commonFlags, start); err != nil {
		return err
	}
	var out eventSink = ui.NewPrinter(m.Stdout, f.json)
	stderr := m.Stderr
	if view := m.runView(f); view != nil { // a person at a terminal: progress, and markdown
		stop := make(chan struct{})
		ticked := make(chan struct{})
		go func() { defer close(ticked); view.Run(stop) }()
		defer func() { close(stop); <-ticked }()
		out, stderr = view, view.Above(m.Stderr)
	}
	fin, err := m.runStarted(ctx, l, out, start, nil, stderr, func() {
		if !f.json {
			fmt.Fprintf(stderr, "troupe: session %s (resume with: troupe resume %s)\n", start.ID, start.ID)
			if st, err := l.client.Status(start.ID); err == nil { // a session that ended already: nothing to add
				for _, w := range st.Warnings {
					fmt.Fprintf(stderr, "troupe: warning: %s\n", w)
				}
			}
		}
	})
	if err != nil {
		return err
	}
	if fin.Status == messages.StatusDone && fin.Error != "" && !f.json {
		// done with a note, such as a resume with nothing left to do: say it, not nothing at all
		fmt.Fprintf(stderr, "troupe: %s\n", fin.Error)
	}
	return clierr.Outcome(fin)
}

// runStarted subscribes to a session's events, starts it, and prints its events through out
// until it finishes (see waitFinished for Ctrl-C). tap, if set, sees every raw envelope too;
// started runs once the Node accepted the session.
func (m *Main) runStarted(ctx context.Context, l *link, out eventSink, start *messages.StartSession, tap func([]byte), stderr io.Writer, started func()) (*messages.SessionFinishedData, error) {
	finished := make(chan *messages.SessionFinishedData, 1)
	sub, err := l.client.SubscribeRawFor(messages.SessionEventsSubject(l.client.NS, start.ID), func(data []byte) {
		m.trace.Mark(starttrace.Event)
		if tap != nil {
			tap(data)
		}
		if fin := out.Event(data); fin != nil {
			m.trace.Mark(starttrace.Finished)
			finished <- fin
		}
	})
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	sigs, stop := interrupts()
	defer stop()
	start.Owner = l.client.ConnID() // the session ends with this client (ServeUntilIdle)
	if err := l.client.StartSession(start); err != nil {
		select {
		case fin := <-finished:
			// The session failed while starting (a window too small for its prefix) and said
			// why before the start request gave up: its reason is the better answer.
			return fin, nil
		default:
			return nil, usageErr("%v", err)
		}
	}
	if started != nil {
		started()
	}
	return m.waitFinished(ctx, l, start.ID, finished, sigs, stderr), nil
}

// eventSink shows a session's events: the Printer, or the RunView on a terminal.
type eventSink interface {
	Event(data []byte) *messages.SessionFinishedData
}

// runView is the progress view of troupe run when a person watches (not TERM=dumb, --json
// off): stdout a terminal gets markdown, and the spinner goes to stderr when it is a terminal
// too; stdout piped with stderr a terminal gets the plain Printer's text and the spinner on
// stderr, so a quiet model is not a silent one. nil otherwise: piped output stays plain.
func (m *Main) runView(f *runFlags) *ui.RunView {
	if f.json || m.Getenv("TERM") == "dumb" {
		return nil
	}
	outWidth, outTTY := ui.WriterTerminal(m.Stdout)
	errWidth, errTTY := ui.WriterTerminal(m.Stderr)
	var status io.Writer
	if errTTY {
		status = m.Stderr
	}
	switch {
	case outTTY:
		return ui.NewRunView(ui.RunViewOptions{Out: m.Stdout, Status: status, Width: outWidth, NoColor: m.Getenv("NO_COLOR") != ""})
	case errTTY: // the answer piped on, a person watching stderr: the spinner says it works
		return ui.NewRunView(ui.RunViewOptions{Out: m.Stdout, Status: status, Width: errWidth, Plain: true})
	}
	return nil
}

// interrupts takes Ctrl-C from here on, for a wait that begins later: taken before a session
// starts, a Ctrl-C while it starts is one waitFinished answers, not the default that kills
// the process (exit by signal instead of 130).
func interrupts() (chan os.Signal, func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	return sigs, func() { signal.Stop(sigs) }
}

// waitFinished waits for the session.finished event, cancelling the session on Ctrl-C (sigs,
// from interrupts) or SIGTERM (see ui.WaitFinished).
func (m *Main) waitFinished(ctx context.Context, l *link, id string, finished <-chan *messages.SessionFinishedData, sigs <-chan os.Signal, stderr io.Writer) *messages.SessionFinishedData {
	gone := func() string {
		if l.node == nil && !l.client.Alive() {
			return nodelink.Gone(l.client, id)
		}
		return ""
	}
	return ui.WaitFinished(ctx, ui.Wait{Session: l.client, ID: id, Finished: finished, Signals: sigs, Gone: gone, Err: stderr})
}

// newSessionID is sortable by time and safe as a subject token.
func newSessionID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}
