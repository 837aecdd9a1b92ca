// Package loop holds troupe loop's decisions, free of actors and the bus: which iteration to
// start with what task, and when the loop is over (done with evidence, out of iterations, a
// setup failure, interrupted). The orchestrator actor feeds it what its iterations report and
// carries out what it decides.
package loop

import (
	"errors"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// Step is what the orchestrator does next.
type Step int

const (
	// Wait: nothing to do until the next report.
	Wait Step = iota
	// StartIteration starts Decision.Start as a headless session.
	StartIteration
	// CancelIteration cancels the running iteration Decision.Session; its session.finished
	// then ends the loop.
	CancelIteration
	// Finish emits Decision.Finished as the loop's own session.finished and stops.
	Finish
)

// Decision is one answer of the Loop.
type Decision struct {
	Step     Step
	Start    *messages.StartSession        // StartIteration
	Session  string                        // CancelIteration
	Reason   string                        // CancelIteration
	Finished *messages.SessionFinishedData // Finish: how the loop ended
}

// Loop is the state of one troupe loop. It is owned by one actor and not safe for concurrent
// use.
type Loop struct {
	req       messages.StartLoop
	n         int    // iterations started
	running   string // the session of the running iteration; "" between iterations
	stopping  string // why the loop was asked to stop; "" while it goes on
	lastCheck string // output of the last failed check command of the current iteration
	evidence  string // the evidence of the goal's completion
	over      bool
}

// New checks a StartLoop request and returns its Loop.
func New(req *messages.StartLoop) (*Loop, error) {
	switch {
	case !messages.ValidToken(req.ID):
		return nil, fmt.Errorf("start loop: invalid loop id %q", req.ID)
	case strings.TrimSpace(req.Objective) == "":
		return nil, errors.New("start loop: the objective is empty")
	case strings.TrimSpace(req.Plan) == "":
		return nil, errors.New("start loop: the plan file is empty")
	case req.MaxIterations < 1:
		return nil, fmt.Errorf("start loop: max iterations %d: at least 1", req.MaxIterations)
	}
	return &Loop{req: *req}, nil
}

// Begin starts the first iteration.
func (l *Loop) Begin() Decision { return l.next() }

// Running is the session of the running iteration, "" between iterations.
func (l *Loop) Running() string { return l.running }

// Iterations is how many iterations have started.
func (l *Loop) Iterations() int { return l.n }

// CheckRan notes a check of the running iteration: the output of the last failed check
// command is what the loop reports if it runs out of iterations.
func (l *Loop) CheckRan(session string, d *messages.DoneCheckData) {
	if session == l.running && d.Kind == messages.DoneCheckCommand && !d.Passed {
		l.lastCheck = d.Output
	}
}

// GoalUpdated notes the evidence of a completed goal.
func (l *Loop) GoalUpdated(session string, d *messages.GoalUpdatedData) {
	if session == l.running && d.Status == messages.GoalComplete {
		l.evidence = d.Evidence
	}
}

// IterationFinished decides what follows the end of an iteration: the next one, or the end of
// the loop.
func (l *Loop) IterationFinished(session string, fin *messages.SessionFinishedData) Decision {
	if l.over || session != l.running {
		return Decision{}
	}
	l.running = ""
	switch {
	case fin.Status == messages.StatusDone && fin.Goal == messages.GoalComplete:
		return l.finish(l.done())
	case fin.Status == messages.StatusInterrupted, fin.Kind == messages.FailConfig:
		return l.finish(&messages.SessionFinishedData{Status: fin.Status, Kind: fin.Kind, Error: fin.Error, Goal: fin.Goal})
	case l.stopping != "":
		return l.finish(&messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: l.stopping, Goal: fin.Goal})
	case l.n >= l.req.MaxIterations:
		return l.finish(l.ranOut(fin))
	}
	return l.next()
}

// StartFailed ends the loop when an iteration could not start: a setup failure (a model or
// setting the Node cannot serve), reported with the Node's error.
func (l *Loop) StartFailed(session, reason string) Decision {
	if l.over || session != l.running {
		return Decision{}
	}
	l.running = ""
	return l.finish(&messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailConfig,
		Error: fmt.Sprintf("iteration %d did not start: %s", l.n, reason)})
}

// Stop asks the loop to end as interrupted: the running iteration is cancelled (the loop ends
// when it has finished), or, between iterations, the loop ends at once.
func (l *Loop) Stop(reason string) Decision {
	if l.over {
		return Decision{}
	}
	if reason == "" {
		reason = "the loop was cancelled"
	}
	if l.running == "" {
		return l.finish(&messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: reason})
	}
	if l.stopping != "" {
		return Decision{} // already cancelling
	}
	l.stopping = reason
	return Decision{Step: CancelIteration, Session: l.running, Reason: reason}
}

// Abort ends the loop at once (its Node is going away): interrupted, whatever runs.
func (l *Loop) Abort(reason string) Decision {
	if l.over {
		return Decision{}
	}
	l.running = ""
	return l.finish(&messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: reason})
}

// next starts the next iteration, or ends the loop if it was asked to stop.
func (l *Loop) next() Decision {
	if l.stopping != "" {
		return l.finish(&messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: l.stopping})
	}
	l.n++
	start := l.req.Iteration
	start.ID = fmt.Sprintf("%s-iter_%d", l.req.ID, l.n)
	start.Agent = fmt.Sprintf("%s/iter_%d", messages.AgentLoop, l.n)
	start.Parent = l.req.ID
	start.Task = Brief(l.req.Objective, l.req.Plan, l.n, l.req.MaxIterations)
	start.LoopStep = true
	l.running, l.lastCheck = start.ID, ""
	return Decision{Step: StartIteration, Start: &start}
}

func (l *Loop) finish(out *messages.SessionFinishedData) Decision {
	l.over = true
	out.Turns = l.n
	return Decision{Step: Finish, Finished: out}
}

// done is the outcome of a loop whose iteration completed the goal.
func (l *Loop) done() *messages.SessionFinishedData {
	final := fmt.Sprintf("objective complete after %d iteration(s)", l.n)
	if l.evidence != "" {
		final += "; evidence: " + l.evidence
	}
	return &messages.SessionFinishedData{Status: messages.StatusDone, Goal: messages.GoalComplete, Final: final}
}

// ranOut is the outcome of a loop whose iterations ran out: the last iteration's end and the
// output of the last failed check, so the user sees why without digging.
func (l *Loop) ranOut(fin *messages.SessionFinishedData) *messages.SessionFinishedData {
	msg := fmt.Sprintf("loop %s stopped after %d iteration(s) without completing the objective; iteration %d %s",
		l.req.ID, l.n, l.n, IterationLine(fin))
	if l.lastCheck != "" {
		msg += "\nthe last check output:\n" + indent(l.lastCheck, "  ")
	}
	return &messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailDone, Goal: fin.Goal, Error: msg}
}

// IterationLine is how one iteration ended, in one line: "done — <first line of the answer>".
func IterationLine(fin *messages.SessionFinishedData) string {
	switch {
	case fin == nil:
		return "no iteration ran"
	case fin.Status == messages.StatusDone && fin.Goal == messages.GoalComplete:
		return "goal complete — " + textfmt.ClipLine(fin.Final, 160)
	case fin.Status == messages.StatusDone:
		return "done — " + textfmt.ClipLine(fin.Final, 160)
	case fin.Kind != "":
		return fmt.Sprintf("%s (%s) — %s", fin.Status, fin.Kind, textfmt.ClipLine(fin.Error, 300))
	}
	return string(fin.Status) + " — " + textfmt.ClipLine(fin.Error, 300)
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, line := range lines {
		lines[i] = prefix + line
	}
	return strings.Join(lines, "\n") + "\n"
}
