package main

import (
	"context"
	"os"
	"os/signal"
)

// signalContext is ctx cancelled also by Ctrl-C, for commands that simply stop on it.
func signalContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt)
}
