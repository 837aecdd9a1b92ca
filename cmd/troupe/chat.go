package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

func (m *Main) chatCommand() *cobra.Command {
	var f commonFlags
	c := &cobra.Command{
		Use:   "chat",
		Short: "Talk with the agent: a terminal UI on a terminal, a line REPL on pipes (/help for commands, /exit to leave; Ctrl-C cancels a turn)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return m.chat(c.Context(), &f, "")
		},
	}
	f.register(c)
	f.registerHorizon(c, "start with this objective (/goal shows, pauses, resumes or clears it)")
	return c
}

// startChat resolves the settings, checks them into an interactive session's start and connects
// to the project's Node: what the line chat and the TUI share before they talk to the session.
// The caller closes the link (l.close(m, id)) and starts the session once it has subscribed.
// A task, if given, is the chat's first message.
func (m *Main) startChat(f *commonFlags, task string) (s *settings, l *link, start *messages.StartSession, err error) {
	if s, err = m.resolve(f); err != nil {
		return nil, nil, nil, err
	}
	start = &messages.StartSession{ID: newSessionID(), Interactive: true, Task: task}
	if err = m.sessionStart(s, nil, f, start); err != nil {
		return nil, nil, nil, err
	}
	if l, err = m.connect(s); err != nil {
		return nil, nil, nil, err
	}
	return s, l, start, nil
}

func (m *Main) chat(ctx context.Context, f *commonFlags, task string) error {
	if m.onTerminal() {
		return m.tuiChat(ctx, f, task) // the line REPL is for pipes and TERM=dumb
	}
	s, l, start, err := m.startChat(f, task)
	if err != nil {
		return err
	}
	id := start.ID
	defer l.close(m, id)
	lc := ui.NewLineChat(ui.LineChatOptions{Session: l.client, ID: id, In: m.Stdin, Out: m.Stdout, Err: m.Stderr,
		Release: releaseIdleMemory, FirstTurn: task != ""})
	sub, err := l.client.SubscribeRaw(messages.SessionEventsSubject(l.client.NS, id), lc.Event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	if err := l.client.StartSession(start); err != nil {
		if fin := lc.FinishedEarly(); fin != nil { // it failed while starting, and said why (see runStarted)
			return outcome(fin)
		}
		return usageErr("%v", err)
	}
	fmt.Fprintf(m.Stderr, "troupe chat · %s · mode %s · session %s\n/help for commands, /exit to leave\n", start.Model, s.cfg.Mode, id)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	fin, err := lc.Run(ctx, sigs)
	switch {
	case err != nil:
		return &exitError{code: exitFailed, msg: err.Error()}
	case fin != nil:
		return outcome(fin)
	}
	return nil
}
