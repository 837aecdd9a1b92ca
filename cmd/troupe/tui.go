package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

// onTerminal reports whether troupe talks to a person at a terminal that can draw the TUI:
// stdin and stdout are terminals and TERM is not dumb. Pipes and TERM=dumb get the line chat.
func (m *Main) onTerminal() bool {
	in, okIn := m.Stdin.(*os.File)
	out, okOut := m.Stdout.(*os.File)
	if !okIn || !okOut || m.Getenv("TERM") == "dumb" {
		return false
	}
	_, _, inTTY := ui.TerminalSize(in)
	_, _, outTTY := ui.TerminalSize(out)
	return inTTY && outTTY
}

// tuiChat is troupe chat on a terminal: the same session as the line chat (started, talked
// to and left the same way), drawn by the ui package.
func (m *Main) tuiChat(ctx context.Context, f *commonFlags) error {
	s, l, start, err := m.startChat(f)
	if err != nil {
		return err
	}
	id := start.ID
	defer l.close(m, id)

	// The subscription's goroutine hands envelopes over; ui.RunChat gives them to its program,
	// which may not run yet when the first ones come.
	events := make(chan *messages.Envelope, 1024)
	stopForward := make(chan struct{})
	stop := sync.OnceFunc(func() { close(stopForward) })
	defer stop()
	sub, err := l.client.SubscribeRaw(messages.ProjectEventsSubject(l.client.NS), func(data []byte) {
		var env messages.Envelope
		if json.Unmarshal(data, &env) != nil {
			return
		}
		select {
		case events <- &env:
		case <-stopForward: // the TUI is gone: nobody reads them any more
		}
	})
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	if err := l.client.StartSession(start); err != nil {
		if fin := finishedAmong(events, id); fin != nil { // it failed while starting, and said why
			return outcome(fin)
		}
		return usageErr("%v", err)
	}

	fin, runErr := ui.RunChat(ctx, ui.ChatOptions{Session: l.client, ID: id, Model: start.Model, Mode: s.cfg.Mode,
		Events: events, In: m.Stdin, Out: m.Stdout, NoColor: m.Getenv("NO_COLOR") != "", Release: releaseIdleMemory})
	stop()
	if fin != nil {
		return outcome(fin)
	}
	reason := "the user left the chat"
	if runErr != nil && ctx.Err() == nil {
		reason = "the terminal UI failed"
	} else if ctx.Err() != nil {
		reason = "troupe received SIGTERM"
	}
	_ = l.client.Cancel(id, reason)
	fmt.Fprintf(m.Stderr, "troupe: left session %s (troupe log %s shows it)\n", id, id)
	if runErr != nil && reason == "the terminal UI failed" {
		return fmt.Errorf("terminal UI: %w", runErr)
	}
	return nil
}

// finishedAmong looks through the envelopes already received for session id's outcome.
func finishedAmong(events <-chan *messages.Envelope, id string) *messages.SessionFinishedData {
	for {
		select {
		case env := <-events:
			if env.Session != id || env.Type != messages.EventSessionFinished {
				continue
			}
			if v, err := env.DecodeData(); err == nil {
				return v.(*messages.SessionFinishedData)
			}
		default:
			return nil
		}
	}
}
