package actors

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// The parent's half of subagents (DESIGN §7, seed 002 article 7): spawn_agent opens a child
// session under this one; its projected result comes back to this session's inbox; the model
// sees the projection, never the child's transcript.

// handle is this session's agent handle: root, or root/a/b for a subagent.
func (s *session) handle() string {
	if s.start.Agent == "" {
		return "root"
	}
	return s.start.Agent
}

var taskNamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// onSpawnAgent validates a spawn request, prepares the child and starts it (or queues it
// behind the running ones), and answers with its handle at once.
func (s *session) onSpawnAgent(ctx actor.Context, req *messages.SpawnAgent) {
	c, notes, err := s.prepareChild(req)
	if err != nil {
		s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
		return
	}
	s.children[c.rec.Task] = c
	s.childOrder = append(s.childOrder, c.rec.Task)
	state := messages.AgentQueued
	if s.running() < s.delegation.Limits.MaxRunning {
		state = messages.AgentRunning
	}
	s.emit(messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: c.rec.Handle, Session: c.rec.Session,
		Role: c.rec.Role, Context: contextMode(req.Context), Model: c.start.Model, State: state,
		Background: c.rec.Background, Worktree: c.rec.Worktree, Tools: c.start.Tools, Task: preview(req.Message, 200)})
	s.respond(ctx, &messages.SpawnAccepted{Handle: c.rec.Handle, Session: c.rec.Session, State: state,
		Tools: c.start.Tools, Model: c.start.Model, Notes: notes})
	if state == messages.AgentRunning {
		s.startChild(ctx, c)
	} else {
		s.saveChild(c)
	}
}

func contextMode(m string) string {
	if m == "" {
		return messages.ContextFresh
	}
	return m
}

// prepareChild turns a request into a child: its role, tools (the role's, within the
// parent's), mode (the stricter of the two), model, context slice and worktree.
func (s *session) prepareChild(req *messages.SpawnAgent) (*childAgent, []string, error) {
	d := s.delegation
	if d == nil || d.NewChild == nil {
		return nil, nil, fmt.Errorf("this session cannot run subagents")
	}
	depth := s.start.Depth + 1
	if depth > d.Limits.MaxDepth {
		return nil, nil, fmt.Errorf("depth limit reached: %s is at depth %d of %d and cannot spawn; do this work yourself", s.handle(), s.start.Depth, d.Limits.MaxDepth)
	}
	if !taskNamePattern.MatchString(req.TaskName) {
		return nil, nil, fmt.Errorf("task_name %q: use lower-case letters, digits, _ and -, at most 40", req.TaskName)
	}
	// Roles that failed to load are reported; the others stay usable.
	roles, loadErr := d.Roles()
	role, err := config.FindRole(roles, req.AgentType)
	if err != nil {
		return nil, nil, errors.Join(err, loadErr)
	}
	var notes []string
	if loadErr != nil {
		notes = append(notes, "some role files did not load: "+loadErr.Error())
	}
	task := s.freeTaskName(req.TaskName)
	if task != req.TaskName {
		notes = append(notes, fmt.Sprintf("task_name %s is taken: this one is %s", req.TaskName, task))
	}
	toolNames, dropped := s.childTools(role, depth)
	if len(dropped) > 0 {
		notes = append(notes, fmt.Sprintf("role %s asks for tools this session lacks, dropped: %s", role.Name, strings.Join(dropped, ", ")))
	}
	inherited, err := s.childContext(req)
	if err != nil {
		return nil, nil, err
	}
	handle := s.handle() + "/" + task
	mode := config.StricterMode(s.currentMode(), role.Mode)
	if role.PlanSafeBash {
		mode = "plan" // reads, plus commands that cannot write the workspace (see tools.Policy)
	}
	start := &messages.StartSession{
		ID: s.start.ID + "-" + task, Model: s.start.Model, BaseURL: s.start.BaseURL,
		Mode: mode, Workspace: s.deps.ToolEnv.Root,
		Agent: handle, Parent: s.start.ID, Role: role.Name, RolePrompt: role.Prompt, Tools: toolNames,
		Depth: depth, MaxTokens: d.Limits.MaxTokens, MaxWallS: int(d.Limits.MaxWall / time.Second),
		Allow: append(slices.Clone(s.start.Allow), s.sessionAllowlist()...), Ask: s.start.Ask, Deny: s.start.Deny,
		Yes: s.start.Yes, AskUser: s.start.Interactive || s.start.AskUser, NoRepair: s.start.NoRepair,
		PlanSafeBash: role.PlanSafeBash, Verdict: role.Verdict,
		MaxTurns: d.Limits.MaxTurns,
	}
	if role.Model != "" {
		start.Model, start.BaseURL = role.Model, ""
	}
	if role.MaxTurns > 0 {
		start.MaxTurns = role.MaxTurns
	}
	start.Task = brief(handle, role.Name, s.handle(), req, len(inherited) > 0)
	c := &childAgent{start: start, inherited: inherited, rec: agentRecord{Task: task, Handle: handle, Session: start.ID,
		Role: role.Name, State: messages.AgentQueued, Background: req.Background, Spawned: time.Now().UTC()}}
	if req.Worktree {
		wt, err := worktree.Create(d.ProjectRoot, task)
		if err != nil {
			return nil, nil, err
		}
		c.wt, c.rec.Worktree, start.Workspace, start.Worktree = wt, wt.Branch, wt.Path, wt.Name
	}
	return c, notes, nil
}

// brief is the child's first message: who it is, who sent it, and the task. It names the
// handle, which marks where the child's own conversation begins after an inherited history.
func brief(handle, role, parent string, req *messages.SpawnAgent, inherited bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[troupe] You are subagent %s (role %s), started by %s.", handle, role, parent)
	if inherited {
		b.WriteString(" The conversation above is your parent's, for context; you act on the directive below, with your own tools.")
	}
	b.WriteString(" Your final answer is the result your parent receives: make it self-contained.\n\nTask:\n")
	b.WriteString(req.Message)
	return b.String()
}

// freeTaskName returns name, or name_2, name_3… when a child of this session already has it.
func (s *session) freeTaskName(name string) string {
	if _, taken := s.children[name]; !taken {
		return name
	}
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s_%d", name, i)
		if _, taken := s.children[n]; !taken {
			return n
		}
	}
}

// childTools is the intersection of the role's tools and this session's; a child at the depth
// limit gets no agent tools.
func (s *session) childTools(role config.Role, depth int) (names, dropped []string) {
	mine := s.deps.Tools.Names()
	want := role.Tools
	if want == nil {
		want = mine
	}
	for _, t := range want {
		switch {
		case !slices.Contains(mine, t):
			dropped = append(dropped, t)
		case depth >= s.delegation.Limits.MaxDepth && isAgentTool(t):
		default:
			names = append(names, t)
		}
	}
	return names, dropped
}

func isAgentTool(name string) bool {
	switch name {
	case "spawn_agent", "wait_agent", "send_agent", "cancel_agent", "list_agents":
		return true
	}
	return false
}

// currentMode is the session's permission mode now: a switch (onSetMode) updates start.Mode
// as it hands the new mode to the executor's gate.
func (s *session) currentMode() string {
	if s.start.Mode == "" {
		return "ask"
	}
	return s.start.Mode
}

func (s *session) sessionAllowlist() []string {
	if s.deps.Gate != nil {
		return s.deps.Gate.SessionAllowlist()
	}
	return nil
}

func (s *session) running() int {
	n := 0
	for _, c := range s.children {
		if c.rec.State == messages.AgentRunning {
			n++
		}
	}
	return n
}

// startChild builds the child's dependencies and spawns it under this session. A child that
// cannot start ends at once with a failed result: the parent never hangs on it.
func (s *session) startChild(ctx actor.Context, c *childAgent) {
	c.rec.State = messages.AgentRunning
	c.began = time.Now()
	deps, err := s.delegation.NewChild(c.start)
	if err != nil {
		s.saveChild(c)
		s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
			Status: messages.AgentFailed, Error: "the agent could not start: " + err.Error()})
		return
	}
	deps.Inherited, deps.Worktree = c.inherited, c.wt
	c.inherited = nil
	pid, err := ctx.SpawnNamed(actor.PropsFromProducer(newSession(c.start, deps)), "agent-"+c.rec.Task)
	if err != nil {
		s.saveChild(c)
		s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
			Status: messages.AgentFailed, Error: fmt.Sprintf("spawn the agent: %v", err)})
		return
	}
	c.pid = pid
	ctx.Watch(pid)
	s.saveChild(c)
}

// startQueued starts queued children while there are free slots, in spawn order. It counts the
// running children once, and again only after starting one: counting them for every child in
// the list made each result cost O(children²) in the parent's actor.
func (s *session) startQueued(ctx actor.Context) {
	free := s.delegation.Limits.MaxRunning - s.running()
	for _, task := range s.childOrder {
		if free <= 0 || s.finished {
			return
		}
		if c := s.children[task]; c.rec.State == messages.AgentQueued {
			s.startChild(ctx, c)
			free = s.delegation.Limits.MaxRunning - s.running()
		}
	}
}

// onAgentResult records a child's projected result (it arrives on this session's inbox),
// announces it, wakes the waits it completes, starts queued children, and lets a turn that
// waited for it go on.
func (s *session) onAgentResult(ctx actor.Context, r *messages.AgentResult) {
	task := r.Handle[strings.LastIndexByte(r.Handle, '/')+1:]
	c, ok := s.children[task]
	if !ok || c.rec.Session != r.Session || messages.AgentFinal(c.rec.State) {
		return // not ours, or already ended (a late duplicate)
	}
	if c.goneTimer != nil {
		c.goneTimer.Stop()
	}
	if r.Usage.DurationMS == 0 && !c.began.IsZero() {
		r.Usage.DurationMS = time.Since(c.began).Milliseconds()
	}
	c.rec.State, c.rec.Result = r.Status, r
	s.saveChild(c)
	s.emit(messages.EventAgentFinished, r)
	s.answerWaiters(ctx, false)
	s.startQueued(ctx)
	s.afterAgentsChanged(ctx)
}

// childStopped is a child's actor ending. Its result normally arrives over the bus; one that
// has not come within a grace period is written for it, so the parent never hangs.
func (s *session) childStopped(ctx actor.Context, who *actor.PID) bool {
	for _, c := range s.children {
		if c.pid == nil || c.pid.Id != who.Id {
			continue
		}
		c.pid = nil
		if !messages.AgentFinal(c.rec.State) {
			task, self, root := c.rec.Task, ctx.Self(), ctx.ActorSystem().Root
			c.goneTimer = time.AfterFunc(childResultGrace, func() { root.Send(self, &childGone{task: task}) })
		}
		return true
	}
	return false
}

// childResultGrace is how long a stopped child's result may take on the bus.
const childResultGrace = 3 * time.Second

func (s *session) onChildGone(ctx actor.Context, msg *childGone) {
	c, ok := s.children[msg.task]
	if !ok || messages.AgentFinal(c.rec.State) {
		return
	}
	s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
		Status: messages.AgentInterrupted, Error: "the agent stopped without reporting a result"})
}

// onWaitAgents answers wait_agent now if every named child has ended, else when they have or
// when the timeout passes.
func (s *session) onWaitAgents(ctx actor.Context, req *messages.WaitAgents) {
	var unknown []string
	for _, h := range req.Handles {
		if s.childByHandle(h) == nil {
			unknown = append(unknown, h)
		}
	}
	if len(unknown) > 0 {
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("unknown handle %s; your agents: %s",
			strings.Join(unknown, ", "), s.handleList())})
		return
	}
	if ctx.Sender() == nil {
		return
	}
	s.waitSeq++
	w := &agentWaiter{id: s.waitSeq, replyTo: ctx.Sender(), handles: req.Handles}
	s.waiters = append(s.waiters, w)
	if s.answerWaiters(ctx, false) {
		return
	}
	id, self, root := w.id, ctx.Self(), ctx.ActorSystem().Root
	w.timer = time.AfterFunc(time.Duration(max(req.TimeoutS, 1))*time.Second, func() { root.Send(self, &waitExpired{id: id}) })
}

func (s *session) onWaitExpired(ctx actor.Context, msg *waitExpired) {
	for _, w := range s.waiters {
		if w.id == msg.id {
			s.answerWaiter(ctx, w)
			s.waiters = slices.DeleteFunc(s.waiters, func(x *agentWaiter) bool { return x.id == msg.id })
			return
		}
	}
}

// answerWaiters answers the waits whose children have all ended (all of them when force is
// set); it reports whether the newest wait was answered.
func (s *session) answerWaiters(ctx actor.Context, force bool) bool {
	answeredLast := false
	kept := s.waiters[:0]
	for i, w := range s.waiters {
		if force || s.allEnded(w.handles) {
			s.answerWaiter(ctx, w)
			answeredLast = i == len(s.waiters)-1
			continue
		}
		kept = append(kept, w)
	}
	clear(s.waiters[len(kept):])
	s.waiters = kept
	return answeredLast
}

func (s *session) answerWaiter(ctx actor.Context, w *agentWaiter) {
	if w.timer != nil {
		w.timer.Stop()
	}
	reply := &messages.WaitReply{}
	for _, h := range w.handles {
		c := s.childByHandle(h)
		if c == nil || !messages.AgentFinal(c.rec.State) {
			reply.Pending = append(reply.Pending, h)
			continue
		}
		reply.Results = append(reply.Results, c.rec.Result)
		if !c.rec.Result.Delivered {
			c.rec.Result.Delivered = true
			s.saveChild(c)
		}
	}
	ctx.Send(w.replyTo, reply)
}

func (s *session) allEnded(handles []string) bool {
	for _, h := range handles {
		if c := s.childByHandle(h); c != nil && !messages.AgentFinal(c.rec.State) {
			return false
		}
	}
	return true
}

func (s *session) childByHandle(h string) *childAgent {
	h = strings.TrimPrefix(strings.TrimSpace(h), "/")
	// Children are kept by task name, and a handle is this session's handle plus the task:
	// look it up rather than scan (wait_agent on n handles checks each one on every result).
	if c := s.children[h]; c != nil {
		return c
	}
	if task, ok := strings.CutPrefix(h, s.handle()+"/"); ok {
		if c := s.children[task]; c != nil && c.rec.Handle == h {
			return c
		}
	}
	for _, c := range s.children {
		if c.rec.Handle == h || c.rec.Task == h {
			return c
		}
	}
	return nil
}

func (s *session) handleList() string {
	if len(s.childOrder) == 0 {
		return "none yet"
	}
	hs := make([]string, 0, len(s.childOrder))
	for _, t := range s.childOrder {
		hs = append(hs, s.children[t].rec.Handle)
	}
	return strings.Join(hs, ", ")
}

// onSendAgent is either a message from this session's parent (the handle is ours: it becomes
// a note before our next model call) or send_agent from our model (forward it to the child).
func (s *session) onSendAgent(ctx actor.Context, req *messages.SendAgent) {
	if req.Handle == s.handle() && s.start.Parent != "" {
		s.parentNotes = append(s.parentNotes, req.Message)
		return
	}
	c := s.childByHandle(req.Handle)
	switch {
	case c == nil:
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("unknown handle %s; your agents: %s", req.Handle, s.handleList())})
	case messages.AgentFinal(c.rec.State):
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("%s has already ended (%s); spawn a new agent to continue its work", c.rec.Handle, c.rec.State)})
	case c.rec.State == messages.AgentQueued:
		c.start.Task += "\n\nFollow-up from your parent:\n" + req.Message
		s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State, Note: "added to its task: it has not started yet"})
	default:
		if err := s.deps.Bridge.Send(c.rec.Session, &messages.SendAgent{Handle: c.rec.Handle, Message: req.Message}); err != nil {
			s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
			return
		}
		s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State})
	}
}

// onCancelAgent stops a child; stopping it stops every agent under it (they are its actor
// children), and each records itself as cancelled or interrupted.
func (s *session) onCancelAgent(ctx actor.Context, req *messages.CancelAgent) {
	c := s.childByHandle(req.Handle)
	if c == nil {
		s.respond(ctx, &messages.ErrorReply{Error: fmt.Sprintf("unknown handle %s; your agents: %s", req.Handle, s.handleList())})
		return
	}
	if messages.AgentFinal(c.rec.State) {
		s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: c.rec.State, Note: "it had already ended"})
		return
	}
	reason := req.Reason
	if reason == "" {
		reason = "cancelled by its parent"
	}
	s.cancelChild(ctx, c, reason)
	s.respond(ctx, &messages.AgentAck{Handle: c.rec.Handle, State: messages.AgentCancelled})
}

func (s *session) cancelChild(ctx actor.Context, c *childAgent, reason string) {
	if c.rec.State == messages.AgentQueued {
		c.rec.State = messages.AgentRunning // so the result below is taken
		s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
			Status: messages.AgentCancelled, Error: reason + " (before it started)"})
		return
	}
	if err := s.deps.Bridge.Send(c.rec.Session, &messages.Cancel{Reason: reason}); err != nil && c.pid != nil {
		ctx.Stop(c.pid)
	}
}

// cancelChildren cancels every child that has not ended (the parent's turn was cancelled).
func (s *session) cancelChildren(ctx actor.Context, reason string) {
	for _, task := range s.childOrder {
		if c := s.children[task]; !messages.AgentFinal(c.rec.State) {
			s.cancelChild(ctx, c, reason)
		}
	}
}

func (s *session) onListAgents(ctx actor.Context) {
	list := &messages.AgentList{Agents: make([]*messages.AgentInfo, 0, len(s.childOrder))}
	for _, task := range s.childOrder {
		c := s.children[task]
		info := &messages.AgentInfo{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role, State: c.rec.State,
			Background: c.rec.Background, Worktree: c.rec.Worktree}
		if c.rec.Result != nil {
			info.Turns, info.ElapsedMS = c.rec.Result.Usage.Turns, c.rec.Result.Usage.DurationMS
		} else if !c.began.IsZero() {
			info.ElapsedMS = time.Since(c.began).Milliseconds()
		}
		list.Agents = append(list.Agents, info)
	}
	s.respond(ctx, list)
}

// saveChild stores a child's record; a failure is logged (the child still runs and reports).
func (s *session) saveChild(c *childAgent) {
	if err := s.deps.Store.PutValue(s.start.ID, agentRecordPrefix+c.rec.Task, &c.rec); err != nil {
		s.deps.Log.Warn("record subagent", "session", s.start.ID, "agent", c.rec.Handle, "err", err)
	}
}

// undelivered returns the results the model has not seen yet, in spawn order.
func (s *session) undelivered() []*childAgent {
	var out []*childAgent
	for _, task := range s.childOrder {
		if c := s.children[task]; c.rec.Result != nil && !c.rec.Result.Delivered {
			out = append(out, c)
		}
	}
	return out
}

// deliverResults puts the results that came in since the last model call into the context, as
// one note: the projection of each child, never its transcript.
func (s *session) deliverResults() error {
	ready := s.undelivered()
	if len(ready) == 0 {
		return nil
	}
	parts := make([]string, 0, len(ready))
	for _, c := range ready {
		parts = append(parts, tools.FormatAgentResult(c.rec.Result))
	}
	if err := s.commitNote("Subagent results:\n\n" + strings.Join(parts, "\n\n")); err != nil {
		return err
	}
	for _, c := range ready {
		c.rec.Result.Delivered = true
		s.saveChild(c)
	}
	return nil
}

// blockingChildren are the children the session must wait for before its next model call:
// foreground children, or every child once a headless session has its final answer.
func (s *session) blockingChildren() int {
	n := 0
	for _, c := range s.children {
		if !messages.AgentFinal(c.rec.State) && (!c.rec.Background || s.finalPending != nil) {
			n++
		}
	}
	return n
}

// restoreChildren reloads the records of a resumed session's children: finished ones keep
// their results (delivered at the next call if the model has not seen them); ones that were
// still running when the session stopped are marked interrupted.
func (s *session) restoreChildren() error {
	var recs []agentRecord
	err := s.deps.Store.EachValue(s.start.ID, agentRecordPrefix, func(_ string, raw []byte) error {
		var r agentRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return fmt.Errorf("restore subagents: %w", err)
	}
	slices.SortFunc(recs, func(a, b agentRecord) int { return a.Spawned.Compare(b.Spawned) })
	for _, r := range recs {
		c := &childAgent{rec: r}
		if !messages.AgentFinal(r.State) {
			c.rec.State = messages.AgentInterrupted
			c.rec.Result = &messages.AgentResult{Handle: r.Handle, Session: r.Session, Role: r.Role,
				Status: messages.AgentInterrupted, Error: "the parent session stopped before this agent ended; its log is kept: troupe log " + r.Session}
			s.saveChild(c)
		}
		s.children[r.Task] = c
		s.childOrder = append(s.childOrder, r.Task)
	}
	return nil
}
