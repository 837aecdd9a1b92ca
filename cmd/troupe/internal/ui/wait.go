package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// Wait is what a headless command waits on while its session runs.
type Wait struct {
	Session  Session
	ID       string
	Finished <-chan *messages.SessionFinishedData // the session's outcome
	Signals  <-chan os.Signal                     // Ctrl-C
	// Gone says why the session can no longer finish (its Node died without a word), or "".
	Gone func() string
	Err  io.Writer
}

// WaitFinished waits for the session's outcome. The first Ctrl-C (or ctx's end: SIGTERM)
// cancels the session, which records itself as interrupted and stays resumable; a second
// Ctrl-C leaves at once.
func WaitFinished(ctx context.Context, w Wait) *messages.SessionFinishedData {
	cancelled := false
	cancel := func(reason string) {
		if cancelled {
			return
		}
		cancelled = true
		fmt.Fprintln(w.Err, "\ntroupe: cancelling… (Ctrl-C again to leave now)")
		if err := w.Session.Cancel(w.ID, reason); err != nil {
			fmt.Fprintf(w.Err, "troupe: cancel: %v\n", err)
		}
	}
	done := ctx.Done()
	for {
		select {
		case fin := <-w.Finished:
			return fin
		case <-w.Signals:
			if cancelled {
				return &messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: "left before the session finished"}
			}
			cancel("interrupted by the user (Ctrl-C)")
		case <-done:
			done = nil
			cancel("troupe received SIGTERM")
		case <-time.After(time.Second):
			// Polls so a Node that died without a word does not leave us waiting forever.
			if why := w.Gone(); why != "" {
				return &messages.SessionFinishedData{Status: messages.StatusFailed, Error: why}
			}
		}
	}
}

// Follow waits for the outcome of a session this process only looks at. Ctrl-C (or ctx's
// end) detaches without touching the session; a Node gone without a word ends the wait with
// why it is gone.
func Follow(ctx context.Context, w Wait) (fin *messages.SessionFinishedData, gone string, detached bool) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case fin := <-w.Finished:
			return fin, "", false
		case <-w.Signals:
			fmt.Fprintln(w.Err)
			return nil, "", true
		case <-ctx.Done():
			return nil, "", true
		case <-tick.C:
			// Polls so a Node that died without a word does not leave us waiting forever.
			if why := w.Gone(); why != "" {
				return nil, why, false
			}
		}
	}
}
