package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/workercli"
	"github.com/troupe-dev/troupe/internal/taskqueue"
)

func (m *Main) workerCommand() *cobra.Command {
	var f workercli.Flags
	c := &cobra.Command{
		Use:   "worker",
		Short: "Run subagents for this project's nodes: take spawn tasks from the NATS cluster's queue until stopped",
		Long: "Joins the NATS cluster given with --nats and runs the project's subagents that nodes with\n" +
			"placement workers or auto send out, up to --slots at once, each with the role, tools, budgets and\n" +
			"model its parent gave it and the provider keys of this process's environment. Run it in a\n" +
			"checkout of the project (its roles and configuration apply). SIGINT or SIGTERM stops taking\n" +
			"tasks; running ones get --grace to finish, then go back to the queue for another worker.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return m.worker(c.Context(), &f) },
	}
	f.Register(c.Flags())
	return c
}

// worker runs a worker until SIGINT or SIGTERM.
func (m *Main) worker(ctx context.Context, f *workercli.Flags) error {
	name, slots, cache, err := workercli.Check(f.Name, f.Slots, f.RepoCache, os.Hostname)
	if err != nil {
		return err
	}
	s, err := m.resolve(&commonFlags{nats: f.NATS, natsCreds: f.Creds, sandbox: f.Sandbox})
	if err != nil {
		return err
	}
	if s.cfg.NATS == "" {
		return usageErr("troupe worker joins a NATS cluster: give --nats nats://host:4222 (or nats in the config, TROUPE_NATS)")
	}
	ns, err := workercli.Namespace(s.cfg.Project.ID, s.root)
	if err != nil {
		return err
	}
	opts, err := m.nodeOptions(s)
	if err != nil {
		return err
	}
	opts.NATS = s.cfg.NATS
	w, err := actors.StartWorker(actors.WorkerOptions{Node: opts, Name: name, NS: ns, Slots: slots,
		StateDir: workercli.StateDir(cache, name), RepoCache: cache, Grace: f.Grace,
		Queue: taskqueue.Config{AckWait: f.AckWait, MaxDeliver: f.MaxDeliver}})
	if err != nil {
		return workercli.StartError(s.cfg.NATS, err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(m.Stdout, "troupe: worker %s serving %s on %s with %d slot(s); Ctrl-C stops\n", name, s.root, s.cfg.NATS, slots)
	w.Run(ctx)
	fmt.Fprintf(m.Stdout, "troupe: worker %s stopped\n", name)
	if err := w.Close(); err != nil {
		return &exitError{Code: exitFailed, Msg: fmt.Sprintf("closing worker: %v", err)}
	}
	return nil
}
