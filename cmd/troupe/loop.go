package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors/loop"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

// troupe loop is "loop until done" (docs/ARCHITECTURE.md "Actors"): each iteration is a fresh-context headless
// session that reads the plan file, does exactly one step, writes down what it did and what
// comes next, and completes the goal once the whole objective is met and verified. The loop
// itself runs in the Node (actors/loop.go); this command sends StartLoop, prints the events of
// the loop and its iterations, and maps how it ended to the exit code.

const defaultMaxIterations = 10

type loopFlags struct {
	runFlags
	plan          string
	maxIterations int
}

func (m *Main) loopCommand() *cobra.Command {
	var f loopFlags
	c := &cobra.Command{
		Use:   "loop --goal \"objective\" [--plan PLAN.md] [--max-iterations N]",
		Short: "Work toward an objective one step per fresh-context session, keeping the plan in a file, until it is done (exit 0) or the iterations run out (exit 1)",
		Long: "Each iteration is a headless session with a fresh context (shown by troupe watch under the loop):\n" +
			"it reads the plan file (creating it with a first plan if there is none), does exactly one\n" +
			"step, checks it off with a note of what was done and what comes next, and, once the whole\n" +
			"objective is met and verified, completes the goal with update_goal and its evidence. A\n" +
			"configured check ([done] check or --check) must pass before that completion is accepted.\n" +
			"Exit 0 when an iteration completed the goal, 1 when --max-iterations ran out, 2 on a setup\n" +
			"error, 130 on Ctrl-C (the running iteration is cancelled and stays resumable).",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return m.loop(c.Context(), &f) },
	}
	f.register(c)
	f.registerHorizon(c, "the objective the loop works toward (required)")
	c.Flags().StringVar(&f.plan, "plan", "PLAN.md", "the plan file, relative to the project root: the loop's memory between iterations")
	c.Flags().IntVar(&f.maxIterations, "max-iterations", defaultMaxIterations, "stop (exit 1) after this many iterations without the objective done")
	c.Flags().BoolVar(&f.json, "json", false, "print the events of the loop and of every iteration as NDJSON envelopes on stdout")
	c.Flags().BoolVarP(&f.yes, "yes", "y", false, "answer every approval request with allow (without it, a call that needs approval is denied)")
	return c
}

func (m *Main) loop(ctx context.Context, f *loopFlags) error {
	objective := strings.TrimSpace(f.goal)
	if objective == "" {
		return usageErr("loop needs the objective: troupe loop --goal \"…\" (see 'troupe loop --help')")
	}
	if f.maxIterations < 1 {
		return usageErr("--max-iterations %d: at least 1", f.maxIterations)
	}
	s, err := m.resolve(&f.commonFlags)
	if err != nil {
		return err
	}
	plan, err := loop.PlanPath(s.root, f.plan)
	if err != nil {
		return usageErr("%v", err)
	}
	// Every iteration starts from the same template: the settings are resolved (and the model
	// checked) once.
	tmpl := messages.StartSession{Yes: f.yes, LoopStep: true}
	if err := m.sessionStart(s, nil, &f.commonFlags, &tmpl); err != nil {
		return err
	}
	l, err := m.connect(s, true)
	if err != nil {
		return err
	}
	v := ui.NewLoopView(newSessionID(), f.maxIterations, f.json, m.Stdout, m.Stderr)
	defer func() { l.close(m, v.Current()) }()
	sub, err := l.client.SubscribeRaw(messages.ProjectEventsSubject(l.client.NS), v.Event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	req := &messages.StartLoop{ID: v.ID, Objective: objective, Plan: plan, MaxIterations: f.maxIterations, Iteration: tmpl}
	sigs, stop := interrupts()
	defer stop()
	if err := l.client.StartLoop(req); err != nil {
		return usageErr("%v", err)
	}
	if !f.json {
		fmt.Fprintf(m.Stderr, "troupe: loop %s · plan %s · at most %d iterations (follow it with troupe watch %s)\n", v.ID, plan, v.Max, v.ID)
	}
	if (tmpl.Mode == "plan" || tmpl.Mode == "ask") && !f.yes {
		fmt.Fprintf(m.Stderr, "troupe: mode %s without --yes: the iterations cannot ask, so writes (the plan file too) are denied unless a [permissions] rule allows them; use --mode auto-edit or --yes\n", tmpl.Mode)
	}
	// Ctrl-C and SIGTERM cancel the loop in the Node, which cancels its running iteration.
	fin := m.waitFinished(ctx, l, v.ID, v.Finished(), sigs, m.Stderr)
	if fin.Status == messages.StatusDone {
		v.Done(fin)
		return nil
	}
	return clierr.Outcome(fin) // 1 out of iterations, 2 setup, 130 interrupted
}
