package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/background"
	"github.com/troupe-dev/troupe/store"
)

// serveFlags are serve's own: the sandbox, and how a node started in the background by a client
// (background.Start) says it is ready and when it stops.
type serveFlags struct {
	commonFlags
	readyFD int           // write background.Ready on this descriptor once node.json is in place
	idle    time.Duration // stop after this long with nothing running and no client (0: never)
}

func (m *Main) serveCommand() *cobra.Command {
	var f serveFlags
	c := &cobra.Command{
		Use:   "serve",
		Short: "Run this project's node in the foreground: sessions keep running with no terminal attached (Ctrl-C stops it)",
		Long: "Runs the project's node until SIGINT or SIGTERM, keeping sessions started with\n" +
			"troupe run --detach alive with no terminal attached. Stopping it records the sessions still\n" +
			"running as interrupted (troupe resume ID continues them). The terminal closing does not stop it.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return m.serve(c.Context(), &f) },
	}
	c.Flags().StringVar(&f.sandbox, "sandbox", "", "sandbox for bash: auto, landlock, bwrap, off")
	c.Flags().StringVar(&f.nats, "nats", "", "join this external NATS server or cluster (nats://host:4222[,…]) instead of starting an embedded one")
	c.Flags().StringVar(&f.natsCreds, "nats-creds", "", "a .creds file (user JWT and seed) to authenticate to the --nats server (overrides [bus] creds)")
	c.Flags().DurationVar(&f.idle, "idle", 0, "stop after this long with no session running and no client connected (0: run until stopped)")
	c.Flags().IntVar(&f.readyFD, "ready-fd", 0, "write \"ready\" on this file descriptor once the node is up (for the client that started it)")
	_ = c.Flags().MarkHidden("ready-fd")
	return c
}

// serve runs the project's Node in this process until SIGINT or SIGTERM (or, with --idle, until
// it has been idle that long), then closes it: every session still running records itself as
// interrupted. Meanwhile a session whose client went away is stopped (ServeUntilIdle).
func (m *Main) serve(ctx context.Context, f *serveFlags) error {
	s, err := m.resolve(&f.commonFlags)
	if err != nil {
		return err
	}
	node, err := m.startOwnNode(s, f.readyFD > 0)
	if err != nil {
		return err
	}
	if f.readyFD > 0 {
		ready := os.NewFile(uintptr(f.readyFD), "ready")
		fmt.Fprintln(ready, background.Ready)
		ready.Close()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The terminal going away is no reason to stop: keeping sessions alive without one is the
	// point. SIGHUP is taken (so it does not kill the process) and otherwise ignored.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	info := node.Info()
	fmt.Fprintf(m.Stdout, "troupe: serving %s on %s (node %s, pid %d); submit with troupe run --detach \"task\", "+
		"follow with troupe attach ID or troupe watch; Ctrl-C stops\n", s.root, info.URL, info.Node, info.PID)
	if node.ServeUntilIdle(ctx, f.idle) {
		fmt.Fprintf(m.Stdout, "troupe: idle for %v with no client: stopping\n", f.idle)
	}
	if n := len(node.Active()); n > 0 {
		fmt.Fprintf(m.Stderr, "troupe: stopping: %d running session(s) will be recorded as interrupted (troupe resume ID continues them)\n", n)
	}
	if err := background.CloseServed(node, m.ExitAfterRun, m.Stderr); err != nil {
		return &exitError{Code: exitFailed, Msg: fmt.Sprintf("closing node: %v", err)}
	}
	return nil
}

// startOwnNode starts the project's Node in this process (background: for a client that
// started it, to stop when idle). If one already runs (or another process is starting one right
// now), that is a usage error naming its pid.
func (m *Main) startOwnNode(s *settings, background bool) (*actors.Node, error) {
	running := func(info *actors.NodeInfo) error {
		return usageErr("a troupe node already runs for %s (pid %d): submit to it with troupe run --detach, or stop it first",
			s.root, info.PID)
	}
	if info, err := actors.FindNode(s.root, s.cfg.NATS); err == nil {
		return nil, running(info)
	}
	opts, err := m.nodeOptions(s)
	if err != nil {
		return nil, err
	}
	opts.Background = background
	node, err := actors.StartNode(opts)
	// The store is held: by a process starting its Node (name it once it is up), or by a node a
	// client started early and dropped (it lets go: then start ours).
	for deadline, tries := time.Now().Add(5*time.Second), 1; errors.Is(err, store.ErrLocked); tries++ {
		if info, ferr := actors.FindNode(s.root, s.cfg.NATS); ferr == nil {
			return nil, running(info)
		} else if time.Now().After(deadline) {
			return nil, usageErr("another process holds the troupe store of %s: %v", s.root, err)
		}
		if time.Sleep(50 * time.Millisecond); tries%4 == 0 {
			node, err = actors.StartNode(opts)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("start troupe node in %s: %w", s.root, err)
	}
	s.wire.Set(node.Store())
	return node, nil
}
