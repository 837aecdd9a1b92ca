package actors

import (
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// The children's decisions about results, waits and the end of a child's actor. Each returns
// a kidsStep; the session carries it out (takeKidsStep, session_agents.go). own is the
// session's handle, the prefix of its children's handles.

// kidsStep is what the children decided, in the order the session carries it out: store the
// records, emit the events, answer the request at hand, answer the waits, arm the timer of a new
// wait, start a child, tell running children to stop; then, when a child ended, start queued
// children and let a turn waiting on them go on.
type kidsStep struct {
	save    []*childAgent
	emit    []messages.Payload
	respond any // the answer to the request at hand (nil: none)
	answers []waitAnswer
	arm     *agentWaiter // a wait_agent not answered yet: its timeout is armed
	timeout time.Duration
	start   *childAgent   // admitted with a free slot: its setup is built and it is spawned
	stop    []*childAgent // running children told to stop (reason); their results end them
	reason  string
	// dispatch are messages for the Node's dispatcher about remote children
	// (children_remote.go), sent after the rest.
	dispatch []any
	ended    bool
}

// and appends the effects of o to st (st's answer to the request stands).
func (st *kidsStep) and(o kidsStep) {
	st.save, st.emit, st.answers = append(st.save, o.save...), append(st.emit, o.emit...), append(st.answers, o.answers...)
	st.dispatch = append(st.dispatch, o.dispatch...)
	st.ended = st.ended || o.ended
}

// admit records a prepared child and answers its spawn: it starts now if a slot is free, or
// waits in the queue. closed refuses it (the session finished, or the turn was cancelled, while
// it was prepared).
func (k *children) admit(c *childAgent, req *messages.SpawnAgent, notes []string, closed bool) kidsStep {
	if closed {
		return kidsStep{respond: &messages.ErrorReply{Error: "the turn was cancelled before the agent could start"}}
	}
	k.add(c)
	state := messages.AgentQueued
	if c.remote || k.running() < k.delegation.Limits.MaxRunning {
		state = messages.AgentRunning
	}
	shown := state // a remote child shows as queued until a worker takes it (childPlaced)
	if c.remote {
		shown, notes = messages.AgentQueued, append(notes, "sent to the workers' task queue; it runs when a worker takes it")
	}
	step := kidsStep{emit: []messages.Payload{messages.AgentSpawnedEvent.Of(&messages.AgentSpawnedData{Handle: c.rec.Handle, Session: c.rec.Session,
		Role: c.rec.Role, Context: contextMode(req.Context), Model: c.start.Model, State: shown,
		Background: c.rec.Background, Worktree: c.rec.Worktree, Tools: c.start.Tools, Task: preview(req.Message, 200)})},
		respond: &messages.SpawnAccepted{Handle: c.rec.Handle, Session: c.rec.Session, State: shown,
			Tools: c.start.Tools, Model: c.start.Model, Notes: notes}}
	if state == messages.AgentRunning {
		step.start = c
	} else {
		step.save = []*childAgent{c}
	}
	return step
}

// cancel is cancel_agent: stopping a child stops every agent under it (they are its actor
// children), and each records itself as cancelled or interrupted.
func (k *children) cancel(own string, req *messages.CancelAgent, now time.Time) kidsStep {
	c := k.byHandle(own, req.Handle)
	switch {
	case c == nil:
		return kidsStep{respond: &messages.ErrorReply{Error: fmt.Sprintf("unknown handle %s; your agents: %s", req.Handle, k.handleList())}}
	case messages.AgentFinal(c.rec.State):
		return kidsStep{respond: &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State, Note: "it had already ended"}}
	}
	reason := req.Reason
	if reason == "" {
		reason = "cancelled by its parent"
	}
	step := k.stopping(own, []*childAgent{c}, reason, now)
	step.respond = &messages.AgentAck{Handle: c.rec.Handle, State: messages.AgentCancelled}
	return step
}

// cancelAll cancels every child that has not ended (the parent's turn was cancelled, or the
// session ended).
func (k *children) cancelAll(own, reason string, now time.Time) kidsStep {
	return k.stopping(own, k.unended(), reason, now)
}

// stopping ends the queued ones of cs at once, as cancelled before they started (so does one
// whose setup is being built: it is never spawned), and tells the running ones to stop.
func (k *children) stopping(own string, cs []*childAgent, reason string, now time.Time) kidsStep {
	step := kidsStep{reason: reason}
	for _, c := range cs {
		if c.rec.State != messages.AgentQueued && !c.building {
			step.stop = append(step.stop, c)
			continue
		}
		k.set(c, messages.AgentRunning) // so the result below is taken
		step.and(k.result(own, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
			Status: messages.AgentCancelled, Error: reason + " (before it started)"}, now))
	}
	return step
}

// waitAnswer is the reply to one wait_agent call.
type waitAnswer struct {
	to    *actor.PID
	reply *messages.WaitReply
}

// result takes a child's projected result (it arrives on the session's inbox): it records and
// announces it and answers the waits it completes. A result that is not ours, or for a child
// that ended already (a late duplicate), changes nothing.
func (k *children) result(own string, r *messages.AgentResult, now time.Time) kidsStep {
	task := r.Handle[strings.LastIndexByte(r.Handle, '/')+1:]
	c := k.get(task)
	if c == nil || c.rec.Session != r.Session {
		return kidsStep{}
	}
	if messages.AgentFinal(c.rec.State) {
		return kidsStep{dispatch: k.recorded(c)} // a late repeat: the bus may forget it too
	}
	if r.Usage.DurationMS == 0 && !c.began.IsZero() {
		r.Usage.DurationMS = now.Sub(c.began).Milliseconds()
	}
	k.set(c, r.Status)
	c.rec.Result = r
	step := kidsStep{save: []*childAgent{c}, emit: []messages.Payload{messages.AgentFinishedEvent.Of(r)}, ended: true,
		dispatch: k.recorded(c)}
	k.answerReady(own, false, &step)
	return step
}

// recorded tells the dispatcher a remote child's outcome is in the session's store (saved
// before the dispatch messages go), so the bus forgets the copy it kept (dispatch_restore.go).
func (k *children) recorded(c *childAgent) []any {
	if !c.remote || k.delegation == nil || k.delegation.Dispatcher == nil {
		return nil
	}
	return []any{&dispatchRecorded{task: c.rec.Session}}
}

// failedToStart is the result of a child that could not start: it ends at once, so the parent
// never hangs on it.
func failedToStart(c *childAgent, why string) *messages.AgentResult {
	return &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role, Status: messages.AgentFailed, Error: why}
}

// stopped is a child's actor ending (false: pid is not a child's). Terminated is a system
// message and overtakes the mailbox, but the child's result (sent to this mailbox before it
// stopped) is already queued: lost names a child with no result yet, for which the session
// queues a childGone now, after that result.
func (k *children) stopped(pid *actor.PID) (ours bool, lost string) {
	c := k.byPID(pid)
	if c == nil {
		return false, ""
	}
	c.pid = nil
	if !messages.AgentFinal(c.rec.State) {
		return true, c.rec.Task
	}
	return true, ""
}

// gone writes the result of a child that stopped without reporting one (it crashed for good):
// no timer decides that a slow result is lost.
func (k *children) gone(own, task string, now time.Time) kidsStep {
	c := k.get(task)
	if c == nil || messages.AgentFinal(c.rec.State) {
		return kidsStep{}
	}
	return k.result(own, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
		Status: messages.AgentInterrupted, Error: "the agent stopped without reporting a result"}, now)
}

// waitFor is wait_agent: answered now if every named child has ended, else when they have or
// when the timeout passes. replyTo nil (nobody to answer) registers nothing.
func (k *children) waitFor(own string, replyTo *actor.PID, req *messages.WaitAgents) kidsStep {
	var unknown []string
	for _, h := range req.Handles {
		if k.byHandle(own, h) == nil {
			unknown = append(unknown, h)
		}
	}
	if len(unknown) > 0 {
		return kidsStep{respond: &messages.ErrorReply{Error: fmt.Sprintf("unknown handle %s; your agents: %s",
			strings.Join(unknown, ", "), k.handleList())}}
	}
	if replyTo == nil {
		return kidsStep{}
	}
	w := k.wait(replyTo, req.Handles)
	var step kidsStep
	if !k.answerReady(own, false, &step) {
		step.arm, step.timeout = w, time.Duration(max(req.TimeoutS, 1))*time.Second
	}
	return step
}

// expired answers a wait whose timeout passed with what is in (nothing if it was answered).
func (k *children) expired(own string, id int) kidsStep {
	var step kidsStep
	if w := k.expire(id); w != nil {
		k.answer(own, w, &step)
	}
	return step
}

// releaseWaits answers every wait with what is in (the session is ending).
func (k *children) releaseWaits(own string) kidsStep {
	var step kidsStep
	k.answerReady(own, true, &step)
	return step
}

// answerReady adds the answers of the waits whose children have all ended (every wait when
// force is set) to step; it reports whether the newest wait was answered.
func (k *children) answerReady(own string, force bool, step *kidsStep) bool {
	ready, newest := k.readyWaits(own, force)
	for _, w := range ready {
		k.answer(own, w, step)
	}
	return newest
}

// answer adds the answer to wait w to step: the results in (now delivered to the model through
// it) and the handles still pending.
func (k *children) answer(own string, w *agentWaiter, step *kidsStep) {
	if w.timer != nil {
		w.timer.Stop()
	}
	reply := &messages.WaitReply{}
	for _, h := range w.handles {
		c := k.byHandle(own, h)
		if c == nil || !messages.AgentFinal(c.rec.State) {
			reply.Pending = append(reply.Pending, h)
			continue
		}
		reply.Results = append(reply.Results, c.rec.Result)
		if !c.rec.Result.Delivered {
			c.rec.Result.Delivered = true
			step.save = append(step.save, c)
		}
	}
	step.answers = append(step.answers, waitAnswer{to: w.replyTo, reply: reply})
}

// nextQueued is the first queued child in spawn order, when a slot to run it is free.
func (k *children) nextQueued() *childAgent {
	if k.delegation == nil || k.nQueued == 0 || k.running() >= k.delegation.Limits.MaxRunning {
		return nil
	}
	for i := k.queuedFrom; i < len(k.order); i++ {
		if c := k.byTask[k.order[i]]; c.rec.State == messages.AgentQueued {
			k.queuedFrom = i
			return c
		}
	}
	k.queuedFrom = len(k.order)
	return nil
}

// deliver is the results the model has not seen, as one note for the next call (the projection
// of each child, never its transcript), and the children whose records now say so.
func (k *children) deliver() (note string, delivered []*childAgent) {
	ready := k.undelivered()
	if len(ready) == 0 {
		return "", nil
	}
	parts := make([]string, 0, len(ready))
	for _, c := range ready {
		parts = append(parts, tools.FormatAgentResult(c.rec.Result))
		c.rec.Result.Delivered = true
	}
	return "Subagent results:\n\n" + strings.Join(parts, "\n\n"), ready
}

// list is list_agents: every child in spawn order, with its turns and time so far.
func (k *children) list(now time.Time) *messages.AgentList {
	list := &messages.AgentList{Agents: make([]*messages.AgentInfo, 0, len(k.order))}
	for _, c := range k.inOrder() {
		info := &messages.AgentInfo{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role, State: c.rec.State,
			Background: c.rec.Background, Worktree: c.rec.Worktree, Worker: c.rec.Worker}
		if c.rec.Result != nil {
			info.Turns, info.ElapsedMS = c.rec.Result.Usage.Turns, c.rec.Result.Usage.DurationMS
		} else if !c.began.IsZero() {
			info.ElapsedMS = now.Sub(c.began).Milliseconds()
		}
		list.Agents = append(list.Agents, info)
	}
	return list
}

// restore takes back the records of a resumed session's children: finished ones keep their
// results (delivered at the next call if the model has not seen them); ones that were still
// running when the session stopped are marked interrupted, and returned to be stored so —
// except children sent to the workers, which may still run there: with a dispatcher they are
// returned as adopt, for the dispatcher to follow again (their lease, their result).
func (k *children) restore(recs []agentRecord) (changed, adopt []*childAgent) {
	canAdopt := k.delegation != nil && k.delegation.Dispatcher != nil
	for _, r := range recs {
		c := &childAgent{rec: r, remote: r.Remote}
		if r.Remote && canAdopt && r.State == messages.AgentRunning {
			adopt = append(adopt, c)
		} else if !messages.AgentFinal(r.State) {
			c.rec.State = messages.AgentInterrupted
			c.rec.Result = &messages.AgentResult{Handle: r.Handle, Session: r.Session, Role: r.Role,
				Status: messages.AgentInterrupted, Error: "the parent session stopped before this agent ended; its log is kept: troupe log " + r.Session}
			changed = append(changed, c)
		}
		k.add(c)
	}
	return changed, adopt
}
