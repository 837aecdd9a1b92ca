package main

import (
	"context"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

// chatOpen says what the chat opens: a new session (with task as its first message, if any) or
// a stored one: --continue, --resume ID, or --resume alone (the picker).
type chatOpen struct {
	task         string
	resume       string // a session id (or a unique part of one)
	continueLast bool
	pick         bool
}

func (o chatOpen) resuming() bool { return o.resume != "" || o.continueLast || o.pick }

// pickerSentinel is --resume's value when given without an ID.
const pickerSentinel = "\x00pick"

// errNotPicked says the person left the picker without choosing: nothing to open.
var errNotPicked = &exitError{Code: exitDone, Msg: "no session picked"}

// chooseSession finds the session a resuming chat opens (nodelink.ChooseSession); --resume
// alone opens the picker on a terminal.
func (m *Main) chooseSession(ctx context.Context, client *actors.Client, o chatOpen) (string, error) {
	return nodelink.ChooseSession(client, o.resume, o.continueLast, func(metas []messages.SessionInfo) (string, error) {
		if !m.onTerminal() {
			return "", usageErr("--resume without an ID needs a terminal for its picker: give the ID (troupe sessions lists them)")
		}
		id, err := ui.PickSession(ctx, m.Stdin, m.Stdout, m.Getenv("NO_COLOR") != "", metas, time.Now())
		if err == nil && id == "" {
			return "", errNotPicked
		}
		return id, err
	})
}
