package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/messages"
)

// troupe loop is "loop until done" (seed 001): each iteration is a fresh-context headless
// session that reads the plan file, does exactly one step, writes down what it did and what
// comes next, and completes the goal once the whole objective is met and verified. The plan
// file is the memory between iterations; the goal and the check command are the definition of
// done, enforced by the session as in troupe run.

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

// loopRun is one troupe loop: its id (the parent of its iterations), what it has seen so far,
// and where it reports.
type loopRun struct {
	id        string
	objective string
	max       int
	out       *printer
	info      io.Writer // per-iteration lines: stdout for people, stderr beside --json
	stderr    io.Writer
	em        *messages.Emitter

	mu        sync.Mutex
	lastCheck string // output of the last failed check command of the current iteration
	evidence  string // evidence of the goal's completion
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
	plan, err := planPath(s.root, f.plan)
	if err != nil {
		return err
	}
	// Every iteration starts from the same template: the settings are resolved (and the model
	// checked) once.
	tmpl := messages.StartSession{Yes: f.yes, LoopStep: true}
	if err := m.sessionStart(s, nil, &f.commonFlags, &tmpl); err != nil {
		return err
	}
	l, err := m.connect(s)
	if err != nil {
		return err
	}
	current := ""
	defer func() { l.close(m, current) }()

	r := &loopRun{id: newSessionID(), objective: objective, max: f.maxIterations, out: newPrinter(m.Stdout, f.json), info: m.Stdout, stderr: m.Stderr}
	if f.json {
		r.info = m.Stderr
	}
	nc := loopPublisher(s.root)
	if nc != nil {
		defer nc.Close()
	}
	r.em = messages.NewEmitter(l.client.NS, r.id, "loop", "", 1, func(subject string, data []byte) error {
		if nc == nil {
			return nil
		}
		return nc.Publish(subject, data)
	})
	r.emit(messages.SessionStartedEvent.Of(&messages.SessionStartedData{Model: tmpl.Model, Mode: tmpl.Mode, Workspace: s.root,
		Task: objective, Role: "loop"}))
	if !f.json {
		fmt.Fprintf(m.Stderr, "troupe: loop %s · plan %s · at most %d iterations (follow it with troupe watch %s)\n", r.id, plan, r.max, r.id)
	}
	if (tmpl.Mode == "plan" || tmpl.Mode == "ask") && !f.yes {
		fmt.Fprintf(m.Stderr, "troupe: mode %s without --yes: the iterations cannot ask, so writes (the plan file too) are denied unless a [permissions] rule allows them; use --mode auto-edit or --yes\n", tmpl.Mode)
	}

	// Ctrl-C between two iterations stops the loop too; during one, waitFinished cancels it.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)

	var last *messages.SessionFinishedData
	for n := 1; n <= r.max; n++ {
		select {
		case <-sigs:
			return r.end(&messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: "interrupted by the user (Ctrl-C)"}, n-1)
		default:
		}
		if ctx.Err() != nil {
			return r.end(&messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: "troupe received SIGTERM"}, n-1)
		}
		start := tmpl
		start.ID = fmt.Sprintf("%s-iter_%d", r.id, n)
		start.Agent = fmt.Sprintf("loop/iter_%d", n)
		start.Parent = r.id
		start.Task = loopBrief(objective, plan, n, r.max)
		current = start.ID
		r.mu.Lock()
		r.lastCheck = ""
		r.mu.Unlock()
		if !f.json {
			fmt.Fprintf(m.Stderr, "troupe: iteration %d/%d · session %s\n", n, r.max, start.ID)
		}
		fin, err := m.runStarted(ctx, l, r.out, &start, r.tap, nil)
		if err != nil {
			r.end(&messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailConfig, Error: err.Error()}, n)
			return err
		}
		select { // a Ctrl-C that cancelled this iteration is counted once
		case <-sigs:
			if fin.Status != messages.StatusInterrupted {
				fmt.Fprintln(m.Stderr, "\ntroupe: interrupted between iterations")
				return r.end(&messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: "interrupted by the user (Ctrl-C)"}, n)
			}
		default:
		}
		fmt.Fprintf(r.info, "iteration %d/%d: %s\n", n, r.max, iterationLine(fin))
		switch {
		case fin.Status == messages.StatusDone && fin.Goal == messages.GoalComplete:
			return r.end(fin, n)
		case fin.Status == messages.StatusInterrupted, fin.Kind == messages.FailConfig:
			return r.end(fin, n)
		}
		last = fin
	}
	return r.end(last, r.max)
}

// end reports how the loop ended after n iterations, emits its session.finished, and returns
// the exit error: nil when the objective is done.
func (r *loopRun) end(fin *messages.SessionFinishedData, n int) error {
	r.mu.Lock()
	evidence, check := r.evidence, r.lastCheck
	r.mu.Unlock()
	out := &messages.SessionFinishedData{Status: fin.Status, Kind: fin.Kind, Turns: n, Goal: fin.Goal}
	var err error
	switch {
	case fin.Status == messages.StatusDone && fin.Goal == messages.GoalComplete:
		out.Final = fmt.Sprintf("objective complete after %d iteration(s)", n)
		if evidence != "" {
			out.Final += "; evidence: " + evidence
		}
		fmt.Fprintf(r.info, "loop %s: %s\n", r.id, out.Final)
	case fin.Status == messages.StatusInterrupted:
		out.Error = fin.Error
		err = outcome(fin)
	case fin.Kind == messages.FailConfig:
		out.Error = fin.Error
		err = outcome(fin)
	default:
		out.Status, out.Kind = messages.StatusFailed, messages.FailDone
		out.Error = fmt.Sprintf("loop %s stopped after %d iteration(s) without completing the objective; iteration %d %s",
			r.id, n, n, iterationLine(fin))
		if check != "" {
			fmt.Fprintf(r.stderr, "troupe: the last check output:\n%s", indentBlock(check, "  "))
		}
		err = &exitError{code: exitFailed, msg: out.Error}
	}
	r.emit(messages.SessionFinishedEvent.Of(out))
	return err
}

// emit publishes one of the loop's own events (session.started, session.finished under the
// agent "loop") and prints it with the iterations' events.
func (r *loopRun) emit(p messages.Payload) {
	env, _ := r.em.Emit(p) // a loop nobody can watch still runs
	if line, err := json.Marshal(env); err == nil {
		r.out.event(line)
	}
}

// tap notes what the loop reports at its end: the last failed check's output and the goal's
// completion evidence.
func (r *loopRun) tap(data []byte) {
	s := string(data)
	if !strings.Contains(s, `"done.check"`) && !strings.Contains(s, `"goal.updated"`) {
		return
	}
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil {
		return
	}
	v, err := env.DecodeData()
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch d := v.(type) {
	case *messages.DoneCheckData:
		if d.Kind == "command" && !d.Passed {
			r.lastCheck = d.Output
		}
	case *messages.GoalUpdatedData:
		if d.Status == messages.GoalComplete {
			r.evidence = d.Evidence
		}
	}
}

// iterationLine is how one iteration ended, in one line: "done — <first line of the answer>".
func iterationLine(fin *messages.SessionFinishedData) string {
	switch {
	case fin == nil:
		return "no iteration ran"
	case fin.Status == messages.StatusDone && fin.Goal == messages.GoalComplete:
		return "goal complete — " + clipLine(firstLineOf(fin.Final), 160)
	case fin.Status == messages.StatusDone:
		return "done — " + clipLine(firstLineOf(fin.Final), 160)
	case fin.Kind != "":
		return fmt.Sprintf("%s (%s) — %s", fin.Status, fin.Kind, clipLine(firstLineOf(fin.Error), 300))
	}
	return string(fin.Status) + " — " + clipLine(firstLineOf(fin.Error), 300)
}

// planPath is the plan file relative to the project root, where the session's tools resolve
// paths. It must lie inside the project.
func planPath(root, plan string) (string, error) {
	plan = strings.TrimSpace(plan)
	if plan == "" {
		return "", usageErr("--plan is empty: give a file such as PLAN.md")
	}
	if filepath.IsAbs(plan) {
		rel, err := filepath.Rel(root, plan)
		if err != nil {
			return "", usageErr("--plan %s: %v", plan, err)
		}
		plan = rel
	}
	plan = filepath.ToSlash(filepath.Clean(plan))
	if plan == "." || plan == ".." || strings.HasPrefix(plan, "../") {
		return "", usageErr("--plan %s is outside the project (%s): the agent can only write inside it", plan, root)
	}
	return plan, nil
}

// loopBrief is an iteration's task: one step of the plan, the plan file kept up to date, and
// the goal completed only when the whole objective is met and verified.
func loopBrief(objective, plan string, n, max int) string {
	return fmt.Sprintf(`Loop iteration %d of at most %d. The objective: %s

Every iteration starts with a fresh context: the plan file %s is the only memory between iterations.

1. Read %s. If it does not exist, create it with a first plan: a markdown checklist ("- [ ] step") of small steps toward the objective, each one verifiable, and a "## Notes" section.
2. Take the first unchecked step and do exactly that one step. Verify it (build, run the tests) as far as it can be verified now.
3. Update %s: check the step off ("- [x] step"), and under "## Notes" write what was done, how it was verified, and what comes next. Add or split steps if you learned something.
4. Only if every step is done and the whole objective is met and verified, call update_goal with status "complete" and the evidence (the commands you ran and their outcome, the files you changed). Otherwise leave the goal alone: the next iteration continues from the plan.

End with a short final answer: the step you did and what comes next.`, n, max, objective, plan, plan, plan)
}

// loopPublisher connects to the project's bus for the loop's own events, so troupe watch shows
// the iterations under the loop. Without it the loop runs all the same.
func loopPublisher(root string) *nats.Conn {
	info, err := actors.FindNode(root)
	if err != nil {
		return nil
	}
	nc, err := actors.Dial(info.URL, info.Token, "troupe-loop")
	if err != nil {
		return nil
	}
	return nc
}
