package main

import (
	"context"
	"fmt"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/internal/idlemem"
	"github.com/troupe-dev/troupe/messages"
)

// onTerminal reports whether troupe talks to a person at a terminal that can draw the TUI.
func (m *Main) onTerminal() bool { return ui.OnTerminal(m.Stdin, m.Stdout, m.Getenv("TERM")) }

// tuiChat is troupe chat on a terminal: the same session as the line chat (started, talked
// to and left the same way), drawn by ui.Chat.
func (m *Main) tuiChat(ctx context.Context, f *commonFlags, o chatOpen) error {
	s, l, start, history, err := m.startChat(ctx, f, o)
	if err != nil {
		return err
	}
	id := start.ID
	defer l.close(m, id)
	chat := ui.NewChat(ui.ChatOptions{Session: l.client, ID: id, Model: start.Model, Mode: s.cfg.Mode,
		In: m.Stdin, Out: m.Stdout, NoColor: m.Getenv("NO_COLOR") != "",
		Resumed: start.Resume, History: history, Complete: setup.Completer(s.root, m.Getenv, start.Model)})
	sub, err := l.client.SubscribeRaw(messages.ProjectEventsSubject(l.client.NS), chat.Event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	start.Owner = l.client.ConnID() // the session ends with this client (ServeUntilIdle)
	if err := l.client.StartSession(start); err != nil {
		if fin := chat.FinishedEarly(); fin != nil { // it failed while starting, and said why
			return clierr.Outcome(fin)
		}
		return usageErr("%v", err)
	}
	defer idlemem.Start()() // from here the chat waits on its user: a quiet one hands back what it no longer uses
	fin, runErr := chat.Run(ctx)
	if fin != nil {
		return m.chatEnded(id, fin)
	}
	reason := "the user left the chat"
	if runErr != nil && ctx.Err() == nil {
		reason = "the terminal UI failed"
	} else if ctx.Err() != nil {
		reason = "troupe received SIGTERM"
	}
	_ = l.client.Cancel(id, reason)
	fmt.Fprintf(m.Stderr, "troupe: left session %s (resume with: troupe resume %s)\n", id, id)
	if runErr != nil && reason == "the terminal UI failed" {
		return fmt.Errorf("terminal UI: %w", runErr)
	}
	return nil
}
