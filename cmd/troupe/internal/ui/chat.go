package ui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/troupe-dev/troupe/messages"
)

// ChatOptions is what the full-screen chat needs: the session to talk to, the events of the
// project (this session's and its agents', in the order they came), and the terminal.
type ChatOptions struct {
	Session     Session
	ID          string // the chat's session
	Model, Mode string // shown until the first status reply
	Events      <-chan *messages.Envelope
	In          io.Reader
	Out         io.Writer
	NoColor     bool
	// Release hands memory an idle chat does not use back to the system (nil: nothing to do).
	Release func()
}

// RunChat draws the chat until the person leaves or the session finishes. It returns the
// session's outcome if the session finished, and the terminal's error if drawing failed or
// ctx ended; leaving with Ctrl-C is no error.
func RunChat(ctx context.Context, o ChatOptions) (*messages.SessionFinishedData, error) {
	model := newTUIModel(tuiConfig{session: o.Session, id: o.ID, model: o.Model, mode: o.Mode, noColor: o.NoColor,
		release: o.Release})
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(o.In), tea.WithOutput(o.Out)}
	if o.NoColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(model, opts...)
	stop := make(chan struct{})
	forwarded := make(chan struct{})
	go func() { defer close(forwarded); forward(o.Events, p, stop) }()
	_, err := p.Run()
	close(stop)
	p.Kill() // unblocks a Send in flight
	<-forwarded
	if errors.Is(err, tea.ErrInterrupted) {
		err = nil
	}
	return model.log.finished, err
}

// forward gives the program each envelope in the order they came, until stop closes.
func forward(events <-chan *messages.Envelope, p *tea.Program, stop <-chan struct{}) {
	for {
		select {
		case env := <-events:
			p.Send(eventMsg{env: env})
		case <-stop:
			return
		}
	}
}
