// Package ui draws troupe for people: the full-screen chat (Bubble Tea), the live agent tree
// of troupe watch, and the plain renderings of a session's events that run, loop, attach and
// the line chat print. It knows the session only through the interfaces below and the events
// of messages/; connecting to the Node, flags and exit codes stay in cmd/troupe.
package ui

import "github.com/troupe-dev/troupe/messages"

// Session is what the UI asks of a running session: send it a line, cancel its turn, answer
// its approval requests, ask its status. actors.Client is one.
type Session interface {
	Input(session, text string) (*messages.InputAck, error)
	Cancel(session, reason string) error
	Approve(session, callID string, answer messages.Answer, by string) error
	Status(session string) (*messages.StatusReply, error)
}

// SessionSource lists the project's stored sessions and asks a running one for its status:
// what troupe watch needs to show the sessions that were already running when it started.
type SessionSource interface {
	Sessions() ([]messages.SessionInfo, error)
	Status(session string) (*messages.StatusReply, error)
}
