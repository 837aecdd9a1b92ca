package ui

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/troupe-dev/troupe/messages"
)

// ChatOptions is what the full-screen chat needs: the session to talk to and the terminal.
type ChatOptions struct {
	Session     Session
	ID          string // the chat's session
	Model, Mode string // shown until the first status reply
	In          io.Reader
	Out         io.Writer
	NoColor     bool
	// Resumed says the session is a stored one reopened; History is its stored log, whose
	// conversation the chat shows first.
	Resumed bool
	History []messages.LogEntry
	// Complete is what Tab completes: the commands and their arguments, @paths.
	Complete Completer
}

// Chat is troupe chat on a terminal, drawn by the Bubble Tea model in tui_model.go. Events
// arrive through Event on the subscription's goroutine; Run's forwarder owns giving them to
// the program, which may not run yet when the first ones come.
type Chat struct {
	o       ChatOptions
	events  chan *messages.Envelope
	gone    chan struct{} // closed when Run returns: nobody reads events any more
	goneSet func()
}

// NewChat returns a chat; subscribe its Event to the project's events (this session's and its
// agents') before the session starts.
func NewChat(o ChatOptions) *Chat {
	c := &Chat{o: o, events: make(chan *messages.Envelope, 1024), gone: make(chan struct{})}
	c.goneSet = sync.OnceFunc(func() { close(c.gone) })
	return c
}

// Event takes one raw envelope of the project's events, in the order they came.
func (c *Chat) Event(data []byte) {
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil {
		return
	}
	select {
	case c.events <- &env:
	case <-c.gone: // the chat is gone: nobody reads them any more
	}
}

// FinishedEarly looks through the envelopes already received for the session's outcome (a
// session that failed while starting says why before the start request gives up).
func (c *Chat) FinishedEarly() *messages.SessionFinishedData {
	for {
		select {
		case env := <-c.events:
			if env.Session != c.o.ID || env.Type != messages.EventSessionFinished {
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

// Run draws the chat until the person leaves or the session finishes. It returns the
// session's outcome if the session finished, and the terminal's error if drawing failed or
// ctx ended; leaving with Ctrl-C is no error.
func (c *Chat) Run(ctx context.Context) (*messages.SessionFinishedData, error) {
	defer c.goneSet()
	o := c.o
	model := newTUIModel(tuiConfig{session: o.Session, id: o.ID, model: o.Model, mode: o.Mode, noColor: o.NoColor,
		complete: o.Complete})
	if o.Resumed {
		model.log.history(o.ID, o.History)
	}
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(o.In), tea.WithOutput(o.Out)}
	if o.NoColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(model, opts...)
	stop := make(chan struct{})
	forwarded := make(chan struct{})
	go func() { defer close(forwarded); forward(c.events, p, stop) }()
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

// OnTerminal reports whether in and out are a terminal that can draw the chat: both are
// terminals and TERM is not dumb. Pipes and TERM=dumb get the line chat.
func OnTerminal(in io.Reader, out io.Writer, term string) bool {
	inF, okIn := in.(*os.File)
	outF, okOut := out.(*os.File)
	if !okIn || !okOut || term == "dumb" {
		return false
	}
	_, _, inTTY := TerminalSize(inF)
	_, _, outTTY := TerminalSize(outF)
	return inTTY && outTTY
}
