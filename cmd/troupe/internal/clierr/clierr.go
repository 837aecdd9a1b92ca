// Package clierr is the one error type that carries an exit code and a one-line message from
// anywhere in the troupe CLI up to its Run, so the CLI's internal packages can say "usage
// error" (exit 2) or "failed" (exit 1) the same way cmd/troupe does.
package clierr

import (
	"errors"
	"fmt"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// Exit codes: the outcome of a run, for scripts.
const (
	Done        = 0
	Failed      = 1
	Usage       = 2 // bad flags, bad config, bad provider setup
	Interrupted = 130
)

// Error carries an exit code and a one-line message up to Run.
type Error struct {
	Code int
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Usagef is a usage error (exit 2): the fix is in the command line or the configuration.
func Usagef(format string, args ...any) error {
	return &Error{Code: Usage, Msg: fmt.Sprintf(format, args...)}
}

// Failf is a failure (exit 1) said in one line.
func Failf(format string, args ...any) error {
	return &Error{Code: Failed, Msg: fmt.Sprintf(format, args...)}
}

// Outcome maps how a session finished to the exit code: nil when it is done.
func Outcome(fin *messages.SessionFinishedData) error {
	switch fin.Status {
	case messages.StatusDone:
		return nil
	case messages.StatusInterrupted:
		return &Error{Code: Interrupted, Msg: "interrupted: " + fin.Error}
	}
	switch fin.Kind {
	case messages.FailConfig:
		return &Error{Code: Usage, Msg: fin.Error}
	case messages.FailInternal, messages.FailEvents:
		return &Error{Code: Failed, Msg: "troupe itself failed (not your setup): " + fin.Error +
			" — troupe doctor checks the store; please report it if it happens again"}
	}
	return &Error{Code: Failed, Msg: "failed: " + fin.Error}
}

// Failure is a command's own error as the CLI reports it: an *Error as it is, a damaged store
// one line with exit 2 (the fix is doctor --repair), anything else an ordinary failure (exit 1)
// — a permission or network error is not fixed by reading --help.
func Failure(err error) error {
	var damaged *store.DamageError
	if errors.As(err, &damaged) {
		return &Error{Code: Usage, Msg: damaged.Error()}
	}
	var ee *Error
	if err != nil && !errors.As(err, &ee) {
		return &Error{Code: Failed, Msg: err.Error()}
	}
	return err
}
