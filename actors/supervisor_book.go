package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// sessionBook is the supervisor's record of its sessions: which run, which are finishing, who
// waits for the answer to a start, and which starts wait for an earlier run of the same
// session to stop. It makes the supervisor's decisions; the supervisor only routes.
type sessionBook struct {
	runs   map[string]*sessionRun // by session id
	closed bool                   // the node is stopping: nothing more is spawned
}

// sessionRun is one running incarnation of a session. Its pid is nil while its setup is being
// built off the supervisor's actor (building, then built).
type sessionRun struct {
	pid       *actor.PID
	finishing bool          // it said it is finishing, or was asked to stop: its actor is about to stop
	starter   *actor.PID    // who waits for the start's answer; nil once answered
	next      []queuedStart // starts of the same session waiting for this run to stop
}

// queuedStart is a start request and who waits for its answer.
type queuedStart struct {
	start   *messages.StartSession
	replyTo *actor.PID
}

// admission is what to do with a start request.
type admission int

const (
	admitNow       admission = iota // nothing of this session runs: start it
	admitAfterStop                  // its previous run is finishing: start once it stopped
	refuseRunning                   // it runs and is not finishing
)

func newSessionBook() *sessionBook { return &sessionBook{runs: map[string]*sessionRun{}} }

// admit decides on a start of session id; a start admitted after the stop is queued here.
func (b *sessionBook) admit(q queuedStart) admission {
	r, ok := b.runs[q.start.ID]
	switch {
	case !ok:
		return admitNow
	case r.finishing:
		r.next = append(r.next, q)
		return admitAfterStop
	}
	return refuseRunning
}

// building records an admitted start whose setup is being built: a start of the same session
// meanwhile is refused (or queued, once it is asked to stop), as for a running one.
func (b *sessionBook) building(q queuedStart) *sessionRun {
	r := &sessionRun{starter: q.replyTo}
	b.runs[q.start.ID] = r
	return r
}

// builtStep is what the supervisor does with a setup that came back: spawn the session (then
// launched), or answer the starter with why it did not start and take the starts that waited.
type builtStep struct {
	act     setupAction
	starter *actor.PID
	why     string
	next    []queuedStart
}

// built decides on run r of session id, whose setup came back: failure says why it could not be
// built ("" if it was). A run asked to stop meanwhile is not spawned and its starter told so; a
// closed book (the node is stopping, its starters answered) spawns nothing. A failed spawn comes
// back here with its failure.
func (b *sessionBook) built(id string, r *sessionRun, failure string) builtStep {
	switch {
	case b.closed || b.runs[id] != r:
		return builtStep{act: setupDrop}
	case r.finishing:
		failure = "session " + id + " was stopped before it started"
	case failure == "":
		return builtStep{act: setupSpawn}
	}
	delete(b.runs, id)
	step := builtStep{act: setupFail, starter: r.starter, why: failure, next: r.next}
	r.starter, r.next = nil, nil
	return step
}

// launched records a started actor and who waits for the start's answer (the starts queued
// behind its setup stay queued).
func (b *sessionBook) launched(id string, pid *actor.PID, replyTo *actor.PID) {
	if r, ok := b.runs[id]; ok && r.pid == nil {
		r.pid, r.starter = pid, replyTo
		return
	}
	b.runs[id] = &sessionRun{pid: pid, starter: replyTo}
}

// up: session id is ready for input. It returns who waits for that answer (nil if none).
func (b *sessionBook) up(id string) *actor.PID {
	r, ok := b.runs[id]
	if !ok {
		return nil
	}
	to := r.starter
	r.starter = nil
	return to
}

// finishing: session id has its outcome and stops. It returns who still waits for the start's
// answer (the session failed before it was up), else nil.
func (b *sessionBook) finishing(id string) *actor.PID {
	r, ok := b.runs[id]
	if !ok {
		return nil
	}
	r.finishing = true
	to := r.starter
	r.starter = nil
	return to
}

// stopped: the actor with this PID id has stopped. It returns the session's id, who still waits
// for its start's answer, and the starts that waited for it to stop, in arrival order.
func (b *sessionBook) stopped(pidID string) (id string, starter *actor.PID, next []queuedStart) {
	for sid, r := range b.runs {
		if r.pid != nil && r.pid.Id == pidID {
			delete(b.runs, sid)
			return sid, r.starter, r.next
		}
	}
	return "", nil, nil
}

// waiting returns everyone still waiting for a start's answer (the node is stopping), and
// forgets them; the book is closed: a setup still being built is not spawned.
func (b *sessionBook) waiting() []*actor.PID {
	b.closed = true
	var out []*actor.PID
	for _, r := range b.runs {
		if r.starter != nil {
			out = append(out, r.starter)
		}
		for _, q := range r.next {
			out = append(out, q.replyTo)
		}
		r.starter, r.next = nil, nil
	}
	return out
}

// active lists the sessions whose actors run (finishing ones included until they stopped).
func (b *sessionBook) active() []string {
	ids := make([]string, 0, len(b.runs))
	for id := range b.runs {
		ids = append(ids, id)
	}
	return ids
}

// stopping: session id is being stopped from outside (its client went away). A start of it
// that comes meanwhile waits for the stop, as for a run that finishes. It returns the actor to
// stop (nil if the session does not run, or has no actor yet: built will not spawn it).
func (b *sessionBook) stopping(id string) *actor.PID {
	r, ok := b.runs[id]
	if !ok {
		return nil
	}
	r.finishing = true
	return r.pid
}
