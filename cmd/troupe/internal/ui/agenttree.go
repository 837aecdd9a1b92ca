package ui

import (
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// agentTree is the model behind troupe watch: one agent per session — a top-level session or a
// subagent (a child session) — fed the project's envelopes in the order they arrive. Children
// hang under their parent, linked by the envelope's parent session id or, failing that, by the
// handle's prefix (root/a/b under root/a). It is not safe for concurrent use: its owner locks.
type agentTree struct {
	agents map[string]*agent // by session id
	order  int               // counts agents as they appear, for a stable order
}

// agent is one session as watch knows it.
type agent struct {
	Session, Parent, Handle string
	Role, Task, Model, Mode string
	Worker                  string // the worker a subagent runs on; "" on its parent's node
	Turns                   int
	InTokens, OutTokens     int
	Start, End              time.Time // Start is zero if watch joined after the agent started

	phase   string          // started, queued, thinking, working, retrying, idle
	tools   []runningCall   // started and not finished, in start order
	asks    []runningCall   // approval requested and not decided
	outcome string          // done, failed, cancelled, interrupted, budget-exhausted; "" while alive
	final   bool            // the outcome came from the parent's agent.finished: it stands
	detail  string          // the final answer or error, one line
	seen    int             // order of appearance
	kids    map[string]bool // children spawned and not finished, by session id
}

type runningCall struct{ id, summary string }

// Phases an agent is in between the events that name a state.
const (
	phaseStarted  = "started"
	phaseThinking = "thinking"
	phaseWorking  = "working" // the model replied with calls; none is running right now
	phaseRetrying = "retrying"
	phaseIdle     = "idle"
	stateApproval = "waiting for approval"
	stateAgents   = "waiting for agents" // between turns, with children still running
)

func newAgentTree() *agentTree { return &agentTree{agents: map[string]*agent{}} }

// State is what the agent is doing now, in one short phrase.
func (a *agent) State() string {
	switch {
	case a.outcome != "":
		return a.outcome
	case len(a.asks) > 0:
		return stateApproval
	case len(a.tools) > 0:
		return "tool " + a.tools[len(a.tools)-1].summary
	case a.phase == phaseWorking && len(a.kids) > 0:
		return stateAgents
	}
	return a.phase
}

// Running reports whether the agent has not ended (a queued agent has not started either).
func (a *agent) Running() bool { return a.outcome == "" && a.phase != string(messages.AgentQueued) }

// Tokens is the agent's input plus output tokens so far.
func (a *agent) Tokens() int { return a.InTokens + a.OutTokens }

// Elapsed is how long the agent has run (until now if it still runs), or 0 if unknown.
func (a *agent) Elapsed(now time.Time) time.Duration {
	if a.Start.IsZero() {
		return 0
	}
	end := a.End
	if end.IsZero() {
		end = now
	}
	return max(end.Sub(a.Start), 0)
}

// get returns the agent of a session, creating it on first sight.
func (t *agentTree) get(session string) *agent {
	a := t.agents[session]
	if a == nil {
		t.order++
		a = &agent{Session: session, Handle: "root", phase: phaseStarted, seen: t.order}
		t.agents[session] = a
	}
	return a
}

// apply feeds one envelope to the tree and returns the agent whose state it may have changed
// (for agent.spawned and agent.finished, emitted by the parent, that is the child), or nil.
func (t *agentTree) apply(env *messages.Envelope) *agent {
	if env.Session == "" {
		return nil
	}
	a := t.get(env.Session)
	if env.Agent != "" {
		a.Handle = env.Agent
	}
	if env.Parent != "" {
		a.Parent = env.Parent
	}
	v, err := env.DecodeData()
	if err != nil {
		return a // a type this troupe does not know: the agent is known, its state unchanged
	}
	switch d := v.(type) {
	case *messages.SessionStartedData:
		// A resumed session starts again under the same id: forget how its last run ended.
		a.Role, a.Model, a.Mode = summaryOr(d.Role, a.Role), summaryOr(d.Model, a.Model), summaryOr(string(d.Mode), a.Mode)
		a.Task, a.Start, a.End = summaryOr(taskOf(d.Task), a.Task), env.TS, time.Time{}
		a.phase, a.outcome, a.final, a.detail, a.tools, a.asks = phaseStarted, "", false, "", nil, nil
	case *messages.TurnStartedData:
		a.phase, a.Turns = phaseThinking, max(a.Turns, d.Turn)
	case *messages.DeltaData:
		if a.phase == phaseRetrying {
			a.phase = phaseThinking
		}
	case *messages.ModelRetryData:
		a.phase = phaseRetrying
	case *messages.ToolCallData:
		a.Turns = max(a.Turns, d.Turn)
		if env.Type == messages.EventToolStarted {
			a.tools = append(a.tools, runningCall{d.CallID, summaryOr(d.Summary, d.Tool)})
		} else {
			a.phase = phaseWorking
		}
	case *messages.ToolFinishedData:
		a.tools = dropCall(a.tools, d.CallID)
		a.asks = dropCall(a.asks, d.CallID)
	case *messages.ApprovalRequestedData:
		a.asks = append(a.asks, runningCall{d.CallID, ApprovalLine(d.Summary)})
	case *messages.DecisionData:
		a.asks = dropCall(a.asks, d.CallID)
	case *messages.UsageData:
		a.InTokens, a.OutTokens, a.Turns = d.TotalInputTokens, d.TotalOutputTokens, max(a.Turns, d.Turn)
	case *messages.TurnFinishedData:
		a.tools, a.asks = nil, nil
		if d.Stop != "tool_calls" {
			a.phase = phaseIdle
		}
	case *messages.SessionFinishedData:
		a.tools, a.asks, a.End = nil, nil, env.TS
		a.Turns = max(a.Turns, d.Turns)
		if !a.final {
			a.outcome, a.detail = sessionOutcome(d), firstLineOf(d.Error)
			if a.outcome == string(messages.StatusDone) || a.detail == "" {
				a.detail = firstLineOf(d.Final)
			}
		}
	case *messages.AgentSpawnedData:
		return t.spawned(env, d)
	case *messages.AgentResult:
		return t.childFinished(env, d)
	}
	return a
}

func (t *agentTree) spawned(env *messages.Envelope, d *messages.AgentSpawnedData) *agent {
	if d.Session == "" {
		return nil
	}
	c := t.get(d.Session)
	c.Parent, c.Handle, c.Role = env.Session, summaryOr(d.Handle, c.Handle), summaryOr(d.Role, c.Role)
	c.Model, c.Task = summaryOr(d.Model, c.Model), summaryOr(taskOf(d.Task), c.Task)
	if p := t.agents[env.Session]; p != nil && c.outcome == "" {
		p.kids = addKid(p.kids, c.Session)
	}
	if c.Start.IsZero() {
		c.Start = env.TS
	}
	if d.Worker != "" {
		c.Worker = d.Worker
	}
	switch {
	case c.outcome != "":
	case d.State == messages.AgentQueued:
		c.phase = string(messages.AgentQueued)
	case c.phase == string(messages.AgentQueued): // a worker took a queued remote child
		c.phase = phaseStarted
	}
	return c
}

func (t *agentTree) childFinished(env *messages.Envelope, d *messages.AgentResult) *agent {
	if d.Session == "" {
		return nil
	}
	c := t.get(d.Session)
	c.Parent = env.Session
	delete(t.get(env.Session).kids, c.Session)
	if d.Handle != "" {
		c.Handle = d.Handle
	}
	if d.Role != "" {
		c.Role = d.Role
	}
	if d.Worker != "" {
		c.Worker = d.Worker
	}
	c.outcome, c.final, c.tools, c.asks = string(d.Status), true, nil, nil
	c.detail = firstLineOf(d.Error)
	if c.detail == "" {
		c.detail = firstLineOf(d.Summary)
	}
	c.Turns = max(c.Turns, d.Usage.Turns)
	c.InTokens, c.OutTokens = max(c.InTokens, d.Usage.InputTokens), max(c.OutTokens, d.Usage.OutputTokens)
	if c.End.IsZero() {
		c.End = env.TS
	}
	if c.Start.IsZero() && d.Usage.DurationMS > 0 {
		c.Start = c.End.Add(-time.Duration(d.Usage.DurationMS) * time.Millisecond)
	}
	return c
}

// sessionOutcome names how a session ended, with a budget failure called out.
func sessionOutcome(d *messages.SessionFinishedData) string {
	if d.Status == messages.StatusFailed && d.Kind == messages.FailBudget {
		return string(messages.AgentBudget)
	}
	if d.Status == "" {
		return string(messages.StatusFailed)
	}
	return string(d.Status)
}

func dropCall(calls []runningCall, id string) []runningCall {
	return slices.DeleteFunc(calls, func(c runningCall) bool { return c.id == id })
}

func addKid(kids map[string]bool, session string) map[string]bool {
	if kids == nil {
		kids = map[string]bool{}
	}
	kids[session] = true
	return kids
}

// taskOf is the task in a subagent's brief ("[troupe] You are subagent … Task:\n<task>"), or s
// as it is.
func taskOf(s string) string {
	if strings.HasPrefix(s, "[troupe] ") {
		if _, task, ok := strings.Cut(s, "\nTask:\n"); ok {
			return task
		}
	}
	return s
}

// summaryOr is s, or fallback when s is empty.
func summaryOr(s, fallback string) string {
	if s != "" {
		return s
	}
	return fallback
}

// parentOf is the agent a is shown under, or nil for a top-level one: the parent session when
// it is known, else the agent whose handle is a's handle without its last part (the most
// recently seen such agent that still runs, or the most recent one).
func (t *agentTree) parentOf(a *agent) *agent {
	if p := t.agents[a.Parent]; p != nil && p != a {
		return p
	}
	prefix, _, ok := cutLast(a.Handle, "/")
	if !ok || a.Parent != "" {
		return nil
	}
	var best *agent
	for _, c := range t.agents {
		if c == a || c.Handle != prefix {
			continue
		}
		if best == nil || (c.Running() && !best.Running()) || (c.Running() == best.Running() && c.seen > best.seen) {
			best = c
		}
	}
	return best
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// maxDepth bounds walks up the tree: a malformed parent chain must not loop.
const maxDepth = 64

// rootOf is the top-level agent a hangs under (a itself for a top-level agent).
func (t *agentTree) rootOf(a *agent) *agent {
	for range maxDepth {
		p := t.parentOf(a)
		if p == nil {
			break
		}
		a = p
	}
	return a
}

// within reports whether a is the session focus or one of its descendants ("" matches all).
// focus may be a full session id or its short form.
func (t *agentTree) within(a *agent, focus string) bool {
	if focus == "" {
		return true
	}
	is := func(id string) bool { return id != "" && (id == focus || ShortID(id) == focus) }
	for range maxDepth {
		if a == nil {
			return false
		}
		if is(a.Session) || is(a.Parent) { // the parent may be quiet: known only by its id
			return true
		}
		a = t.parentOf(a)
	}
	return false
}

// treeRow is one agent in display order, with its depth and whether it is its parent's last
// child at each level above it (for the tree's glyphs).
type treeRow struct {
	*agent
	last []bool // last[i]: the ancestor at depth i+1 (or the agent itself, last) is a last child
}

// rows lists the agents within focus in tree order: top-level agents by appearance, each
// followed by its children, depth first.
func (t *agentTree) rows(focus string) []treeRow {
	children := map[*agent][]*agent{}
	var tops []*agent
	for _, a := range t.agents {
		if !t.within(a, focus) {
			continue
		}
		if p := t.parentOf(a); p != nil && t.within(p, focus) {
			children[p] = append(children[p], a)
		} else {
			tops = append(tops, a)
		}
	}
	bySeen := func(x, y *agent) int { return x.seen - y.seen }
	slices.SortFunc(tops, bySeen)
	var out []treeRow
	var walk func(a *agent, last []bool)
	walk = func(a *agent, last []bool) {
		out = append(out, treeRow{agent: a, last: last})
		kids := children[a]
		slices.SortFunc(kids, bySeen)
		if len(last) >= maxDepth {
			return
		}
		for i, c := range kids {
			walk(c, append(slices.Clone(last), i == len(kids)-1))
		}
	}
	for _, a := range tops {
		walk(a, nil)
	}
	return out
}

// approvals lists the pending approval requests of the agents within focus.
func (t *agentTree) approvals(focus string) []approvalRow {
	var out []approvalRow
	for _, r := range t.rows(focus) {
		for _, c := range r.asks {
			out = append(out, approvalRow{agent: r.agent, call: c})
		}
	}
	return out
}

type approvalRow struct {
	agent *agent
	call  runningCall
}
