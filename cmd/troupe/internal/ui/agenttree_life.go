package ui

import (
	"slices"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// The agent tree across the life of a watch: seeded from the node's state when a client attaches
// after things started, ended when the node goes away, and bounded over a long watch.

// seed adds a session that was running before watch joined, from its stored meta and its
// status, and returns it; a session the tree already knows from events is left alone (nil).
func (t *agentTree) seed(meta *messages.SessionInfo, st *messages.StatusReply) *agent {
	if _, known := t.agents[meta.ID]; known {
		return nil
	}
	a := t.get(meta.ID)
	a.Handle, a.Parent = summaryOr(meta.Agent, "root"), meta.Parent
	a.Task, a.Model, a.Mode, a.Start = taskOf(meta.Task), meta.Model, meta.Mode, meta.Created
	a.Turns, a.InTokens, a.OutTokens = st.Turns, st.InputTokens, st.OutputTokens
	switch st.Phase {
	case messages.PhaseCalling:
		a.phase = phaseThinking
	case messages.PhaseExecuting:
		a.phase = phaseWorking
	case messages.PhaseIdle:
		a.phase = phaseIdle
	case messages.PhaseWaiting:
		a.phase = stateAgents
	}
	for _, ask := range st.Pending {
		a.asks = append(a.asks, runningCall{ask.CallID, ApprovalLine(ask.Summary)})
	}
	return a
}

// nodeGone records that the Node's process ended: whatever it was running ended with it. It
// returns the agents that were still running.
func (t *agentTree) nodeGone(at time.Time) []*agent {
	var ended []*agent
	for _, a := range t.agents {
		if a.outcome == "" {
			a.outcome, a.detail, a.tools, a.asks = string(messages.AgentInterrupted), "the troupe node stopped", nil, nil
			if a.End.IsZero() {
				a.End = at
			}
			ended = append(ended, a)
		}
	}
	slices.SortFunc(ended, func(x, y *agent) int { return x.seen - y.seen })
	return ended
}

// forget drops the oldest finished top-level trees while the tree holds more than limit agents,
// so a watch left open for days stays small.
func (t *agentTree) forget(limit int) {
	if len(t.agents) <= limit {
		return
	}
	rows := t.rows("")
	for i := 0; i < len(rows) && len(t.agents) > limit*3/4; {
		j := i + 1
		for j < len(rows) && len(rows[j].last) > 0 {
			j++
		}
		if treeFinished(rows[i:j]) {
			for _, r := range rows[i:j] {
				delete(t.agents, r.Session)
			}
		}
		i = j
	}
}
