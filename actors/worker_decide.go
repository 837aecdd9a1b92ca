package actors

import "github.com/troupe-dev/troupe/messages"

// decideTaskEnd decides how a task on a worker ends, from the child's result (nil: it stopped
// without one) and whether the stopping worker abandoned it. It returns the result to publish,
// or handBack: nak the task so another worker runs it. A result the child reached on its own
// is reported, even as the worker stops; "interrupted" from a child the stopping worker stopped
// is the worker's doing, not the child's outcome, so that task goes back. A child that stopped
// without a result on a worker that is not stopping failed there, and says so rather than
// running again.
func decideTaskEnd(t *messages.SpawnTask, worker string, res *messages.AgentResult, abandoned bool) (final *messages.AgentResult, handBack bool) {
	switch {
	case abandoned && (res == nil || res.Status == messages.AgentInterrupted):
		return nil, true
	case res != nil:
		r := *res
		r.Worker = worker
		if r.Session == "" {
			r.Session = t.ID
		}
		return &r, false
	}
	r := failedTask(t, "the agent stopped without a result on worker "+worker)
	r.Worker = worker
	return r, false
}

// failedTask is the result of a task whose child could not run.
func failedTask(t *messages.SpawnTask, why string) *messages.AgentResult {
	return &messages.AgentResult{Session: t.ID, Handle: t.Start.Agent, Role: t.Start.Role,
		Status: messages.AgentFailed, Error: why}
}
