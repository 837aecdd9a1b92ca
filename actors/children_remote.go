package actors

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
)

// The parent session's half of remote children (docs/ARCHITECTURE.md "Subagents on workers"):
// a child is a SpawnTask wherever it runs. One the placement sends out goes to the Node's
// dispatcher (kidsStep.dispatch); if the dispatcher cannot place it (no worker attached, no task
// queue) it starts here after all, as a protoactor child of its session. These are the
// decisions; the session carries out the steps (takeKidsStep).

// place decides whether a prepared child goes to the workers; what it returns is the warning
// that it cannot, if any.
func (k *children) place(c *childAgent) []messages.Payload {
	d := k.delegation
	c.place.localFree = k.running() < d.Limits.MaxRunning
	if c.place.want() != placeRemote {
		return nil
	}
	if d.Dispatcher == nil {
		return k.warnLocal(c, "this node dispatches to no workers")
	}
	c.remote, c.rec.Remote = true, true
	return nil
}

// warnLocal says, once per session, that a child meant for the workers runs here.
func (k *children) warnLocal(c *childAgent, why string) []messages.Payload {
	if !c.place.strict() || k.warnedLocal {
		return nil
	}
	k.warnedLocal = true
	return []messages.Payload{messages.ErrorEvent.Of(&messages.ErrorData{Message: fmt.Sprintf(
		"placement is workers but %s runs on this node: %s (start one with troupe worker, or set [agents] placement = \"auto\")", c.rec.Handle, why)})}
}

// dispatch starts a remote child: its SpawnTask goes to the dispatcher (parent is the session,
// which hears a dispatchOutcome), or, if it cannot be sent, it runs here.
func (k *children) dispatch(c *childAgent, ns string, parent *actor.PID, now time.Time) kidsStep {
	k.set(c, messages.AgentRunning)
	c.began = now
	task, err := c.spawnTask(ns)
	if err != nil {
		return k.runHere(c, err.Error())
	}
	return kidsStep{save: []*childAgent{c}, dispatch: []any{&dispatchTask{task: task, parent: parent}}}
}

// runHere starts a child meant for the workers on this node, or queues it for a local slot.
func (k *children) runHere(c *childAgent, why string) kidsStep {
	st := kidsStep{emit: k.warnLocal(c, why)}
	// Queued until it starts, so it does not count against the slot it asks for (a dispatched
	// child is already running).
	k.move(c, messages.AgentQueued, false)
	if k.running() >= k.delegation.Limits.MaxRunning {
		st.save = []*childAgent{c}
		return st
	}
	st.start = c
	return st
}

// refused takes the dispatcher's answer to a dispatched child: placed on the queue (nothing to
// do), or refused, when it runs here, or fails if the session (own) has finished meanwhile.
func (k *children) refused(m *dispatchOutcome, own string, finished bool, now time.Time) kidsStep {
	c := k.bySession(m.task)
	if m.note != "" && m.refused == "" {
		return kidsStep{emit: []messages.Payload{messages.ErrorEvent.Of(&messages.ErrorData{Message: m.note})}}
	}
	if c == nil || !c.remote || messages.AgentFinal(c.rec.State) || m.refused == "" {
		return kidsStep{}
	}
	if finished {
		return k.result(own, failedToStart(c, "the session ended before the agent could start"), now)
	}
	return k.runHere(c, m.refused)
}

// placed takes the news that a worker took a remote child: agent.spawned again, now running,
// with the worker's name.
func (k *children) placed(m *childPlaced) kidsStep {
	c := k.bySession(m.task)
	if c == nil || !c.remote || messages.AgentFinal(c.rec.State) {
		return kidsStep{}
	}
	c.rec.Worker = m.worker
	return kidsStep{save: []*childAgent{c}, emit: []messages.Payload{messages.AgentSpawnedEvent.Of(&messages.AgentSpawnedData{
		Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role, Context: messages.ContextFresh, Model: c.model(),
		State: messages.AgentRunning, Background: c.rec.Background, Worker: m.worker})}}
}

// adopt hands a resumed session's remote children that may still run back to the dispatcher:
// it follows their leases again and forwards their results to parent.
func (k *children) adopt(parent *actor.PID, parentID string) kidsStep {
	var st kidsStep
	for _, c := range k.adopting {
		st.dispatch = append(st.dispatch, &dispatchAdopt{task: c.rec.Session, handle: c.rec.Handle, role: c.rec.Role,
			worker: c.rec.Worker, parent: parent, parentID: parentID})
	}
	k.adopting = nil
	return st
}

// modeChanged passes the parent's (by) new mode to its remote children, each within its role's
// mode (a local child keeps the mode it started with).
func (k *children) modeChanged(mode messages.Mode, by string) kidsStep {
	var st kidsStep
	for _, c := range k.unended() {
		if c.remote && c.start != nil {
			m := messages.Mode(config.StricterMode(string(mode), c.roleMode))
			st.dispatch = append(st.dispatch, &dispatchRoute{task: c.rec.Session, msg: &messages.SetMode{Mode: m, By: "parent " + by}})
		}
	}
	return st
}

// allowlistGrew passes the patterns the session's allowlist gained to its remote children (a
// local child's gate is built with the list when it starts). Call it before the list is kept.
func (k *children) allowlistGrew(patterns []string) kidsStep {
	var st kidsStep
	if len(patterns) <= len(k.allowlist) || k.delegation == nil || k.delegation.Dispatcher == nil {
		return st
	}
	for _, c := range k.unended() {
		if c.remote {
			st.dispatch = append(st.dispatch, &dispatchRoute{task: c.rec.Session, msg: &messages.SessionAllowlist{Patterns: slices.Clone(patterns)}})
		}
	}
	return st
}

// spawnTask is the child's start as it crosses the bus to project ns: its start request (the
// environment stays here: a worker uses its own) and the context slice it inherits.
func (c *childAgent) spawnTask(ns string) (*messages.SpawnTask, error) {
	t := *c.task // its Start is c.start, follow-ups and worktree included
	t.Project, t.Start.Env = ns, nil
	if len(c.inherited) > 0 {
		data, err := json.Marshal(c.inherited)
		if err != nil {
			return nil, fmt.Errorf("encode the inherited context: %w", err)
		}
		// Inline here; the queue moves it to the object store when the task would be too large
		// for the bus (taskstate.ShipContext).
		t.Inherited = &messages.Blob{Inline: data}
	}
	return &t, nil
}

// model is the model the child was started with ("" before its start is built).
func (c *childAgent) model() string {
	if c.start != nil {
		return c.start.Model
	}
	return ""
}
