package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/internal/idlemem"
	"github.com/troupe-dev/troupe/messages"
)

func (m *Main) chatCommand() *cobra.Command {
	var f commonFlags
	var o chatOpen
	c := &cobra.Command{
		Use:   "chat [prompt words…]",
		Short: "Talk with the agent: a terminal UI on a terminal, a line REPL on pipes (/help for commands, /exit to leave; Ctrl-C cancels a turn)",
		Long: "Talk with the agent: a terminal UI on a terminal, a line REPL on pipes (/help for commands, /exit to\n" +
			"leave; Ctrl-C cancels a turn). Words after the flags are the first message (troupe chat explain this repo).",
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if o.resume == pickerSentinel && len(args) > 0 {
				o.resume, args = args[0], args[1:] // --resume ID, as written in the docs (not only --resume=ID)
			}
			o.task = strings.Join(args, " ")
			if o.resume == pickerSentinel {
				o.resume, o.pick = "", true
			}
			if o.continueLast && (o.resume != "" || o.pick) {
				return usageErr("--continue and --resume both choose the session: give one")
			}
			return m.chat(c.Context(), &f, o)
		},
	}
	f.register(c)
	f.registerHorizon(c, "start with this objective (/goal shows, pauses, resumes or clears it)")
	c.Flags().BoolVarP(&o.continueLast, "continue", "c", false, "reopen this project's most recent session")
	c.Flags().StringVarP(&o.resume, "resume", "r", "", "reopen the session with this ID; without an ID, pick one of the recent sessions")
	c.Flags().Lookup("resume").NoOptDefVal = pickerSentinel
	return c
}

// startChat resolves the settings, checks them into an interactive session's start and connects
// to the project's Node: what the line chat and the TUI share before they talk to the session.
// The caller closes the link (l.close(m, id)) and starts the session once it has subscribed.
// A task, if given, is the chat's first message; a resumed session comes with its stored log.
func (m *Main) startChat(ctx context.Context, f *commonFlags, o chatOpen) (s *settings, l *link, start *messages.StartSession, history []messages.LogEntry, err error) {
	if s, err = m.resolve(f); err != nil {
		return nil, nil, nil, nil, err
	}
	start = &messages.StartSession{ID: newSessionID(), Interactive: true, Task: o.task}
	if !o.resuming() { // checked before a node starts: a setup mistake costs nothing
		if err = m.sessionStart(s, nil, f, start); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	if l, err = m.connect(s, true); err != nil {
		return nil, nil, nil, nil, err
	}
	if !o.resuming() {
		return s, l, start, nil, nil
	}
	if start.ID, err = m.chooseSession(ctx, l.client, o); err == nil {
		start.Resume = true
		err = m.sessionStart(s, l.client, f, start)
	}
	if err == nil {
		_, history, err = l.client.Log(start.ID)
	}
	if err != nil {
		l.close(m, "")
		return nil, nil, nil, nil, err
	}
	return s, l, start, history, nil
}

func (m *Main) chat(ctx context.Context, f *commonFlags, o chatOpen) error {
	if m.onTerminal() {
		return m.tuiChat(ctx, f, o) // the line REPL is for pipes and TERM=dumb
	}
	s, l, start, history, err := m.startChat(ctx, f, o)
	if err != nil {
		return err
	}
	id := start.ID
	defer l.close(m, id)
	lc := ui.NewLineChat(ui.LineChatOptions{Session: l.client, ID: id, In: m.Stdin, Out: m.Stdout, Err: m.Stderr,
		FirstTurn: o.task != ""})
	sub, err := l.client.SubscribeRaw(messages.SessionEventsSubject(l.client.NS, id), lc.Event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	start.Owner = l.client.ConnID() // the session ends with this client (ServeUntilIdle)
	if err := l.client.StartSession(start); err != nil {
		if fin := lc.FinishedEarly(); fin != nil { // it failed while starting, and said why (see runStarted)
			return clierr.Outcome(fin)
		}
		return usageErr("%v", err)
	}
	defer idlemem.Start()() // from here the chat waits on its user: a quiet one hands back what it no longer uses
	if start.Resume {
		fmt.Fprintf(m.Stderr, "resumed session %s (%d stored entries; troupe log %s shows them)\n", id, len(history), id)
	}
	fmt.Fprintf(m.Stderr, "troupe chat · %s · mode %s · session %s\n/help for commands, /exit to leave\n", start.Model, s.cfg.Mode, id)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	fin, err := lc.Run(ctx, sigs)
	switch {
	case err != nil:
		return &exitError{Code: exitFailed, Msg: err.Error()}
	case fin != nil:
		return m.chatEnded(id, fin)
	}
	fmt.Fprintf(m.Stderr, "troupe: left session %s (resume with: troupe resume %s)\n", id, id)
	return nil
}

// chatEnded is the outcome of a chat whose session ended under it; an interrupted one (its node
// stopped) stays resumable, and the chat says how before it exits 130.
func (m *Main) chatEnded(id string, fin *messages.SessionFinishedData) error {
	if fin.Status == messages.StatusInterrupted {
		fmt.Fprintf(m.Stderr, "troupe: session %s (resume with: troupe resume %s)\n", id, id)
	}
	return clierr.Outcome(fin)
}
