// Command troupe is a coding-agent harness: a model proposes, troupe decides. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/prespawn"
	"github.com/troupe-dev/troupe/internal/initgc"
)

func main() {
	initgc.Start() // the collector stays off while troupe starts (internal/initgc)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	m := &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, ExitAfterRun: true, NodeProcess: true}
	// A node a client started early gets its arguments, and prewarms while it waits for them.
	code := m.Run(ctx, prespawn.Args(os.Args[1:], m.prewarmNode))
	m.prewarm.Drop() // a store the prewarm started that no Node took (serve failed before it)
	stop()
	os.Exit(code)
}
