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
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// The parent's half of subagents (DESIGN §7, seed 002 article 7): spawn_agent opens a child
// session under this one; its projected result comes back to this session's inbox; the model
// sees the projection, never the child's transcript.

var taskNamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// worktreeTimeout bounds creating a child's git worktree.
const worktreeTimeout = 2 * time.Minute

// onSpawnAgent validates a spawn request, prepares the child and starts it (or queues it
// behind the running ones), and answers with its handle. A child in its own worktree is
// answered once git has created it, off the actor (Receive never blocks on git).
func (s *session) onSpawnAgent(ctx actor.Context, req *messages.SpawnAgent) {
	c, notes, err := s.prepareChild(req)
	if err != nil {
		s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
		return
	}
	if !req.Worktree {
		s.admitChild(ctx, req, c, notes)
		return
	}
	root, task := s.kids.delegation.ProjectRoot, c.rec.Task
	type made struct {
		wt  *worktree.Worktree
		err error
	}
	offActor(ctx, worktreeTimeout, func() made { wt, err := worktree.Create(root, task); return made{wt, err} },
		func(m made, err error) {
			if err == nil {
				err = m.err
			}
			if err != nil {
				s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
				return
			}
			c.wt, c.rec.Worktree, c.start.Workspace, c.start.Worktree = m.wt, m.wt.Branch, m.wt.Path, m.wt.Name
			s.admitChild(ctx, req, c, notes)
		})
}

// admitChild records a prepared child, announces it, answers the spawn and starts or queues it.
func (s *session) admitChild(ctx actor.Context, req *messages.SpawnAgent, c *childAgent, notes []string) {
	if s.finished() || s.cur.cancelling != "" {
		s.respond(ctx, &messages.ErrorReply{Error: "the turn was cancelled before the agent could start"})
		return
	}
	s.kids.add(c)
	state := messages.AgentQueued
	if s.kids.running() < s.kids.delegation.Limits.MaxRunning {
		state = messages.AgentRunning
	}
	s.emit(messages.AgentSpawnedEvent.Of(&messages.AgentSpawnedData{Handle: c.rec.Handle, Session: c.rec.Session,
		Role: c.rec.Role, Context: contextMode(req.Context), Model: c.start.Model, State: state,
		Background: c.rec.Background, Worktree: c.rec.Worktree, Tools: c.start.Tools, Task: preview(req.Message, 200)}))
	s.respond(ctx, &messages.SpawnAccepted{Handle: c.rec.Handle, Session: c.rec.Session, State: state,
		Tools: c.start.Tools, Model: c.start.Model, Notes: notes})
	if state == messages.AgentRunning {
		s.startChild(ctx, c)
	} else {
		s.saveChild(c)
	}
}

func contextMode(m messages.ContextMode) messages.ContextMode {
	if m == "" {
		return messages.ContextFresh
	}
	return m
}

// prepareChild turns a request into a child: its role, tools (the role's, within the
// parent's), mode (the stricter of the two), model and context slice. Its worktree, if it
// wants one, is made by onSpawnAgent.
func (s *session) prepareChild(req *messages.SpawnAgent) (*childAgent, []string, error) {
	d := s.kids.delegation
	if d == nil || d.NewChild == nil {
		return nil, nil, fmt.Errorf("this session cannot run subagents")
	}
	depth := s.cfg.role.Depth + 1
	if depth > d.Limits.MaxDepth {
		return nil, nil, fmt.Errorf("depth limit reached: %s is at depth %d of %d and cannot spawn; do this work yourself", s.cfg.handle(), s.cfg.role.Depth, d.Limits.MaxDepth)
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
	task := s.kids.freeTaskName(req.TaskName)
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
	handle := s.cfg.handle() + "/" + task
	mode := messages.Mode(config.StricterMode(string(s.cfg.mode()), role.Mode))
	if role.PlanSafeBash {
		mode = messages.ModePlan // reads, plus commands that cannot write the workspace (see tools.Policy)
	}
	start := &messages.StartSession{
		ID: s.cfg.ID + "-" + task, Model: s.cfg.Model, BaseURL: s.cfg.BaseURL,
		Mode: mode, Workspace: s.deps.Workspace, Cwd: s.cfg.Cwd, // a child reads the instructions its parent was given
		Agent: handle, Parent: s.cfg.ID, Role: role.Name, RolePrompt: role.Prompt, Tools: toolNames,
		Depth: depth, MaxTokens: d.Limits.MaxTokens, MaxWallS: int(d.Limits.MaxWall / time.Second),
		Allow: append(slices.Clone(s.cfg.Allow), s.sessionAllowlist()...), Ask: s.cfg.Ask, Deny: s.cfg.Deny,
		Yes: s.cfg.Yes, AskUser: s.cfg.Interactive || s.cfg.role.AskUser, NoRepair: s.cfg.NoRepair,
		PlanSafeBash: role.PlanSafeBash, Verdict: role.Verdict,
		MaxTurns: d.Limits.MaxTurns,
	}
	if role.Model != "" {
		start.Model, start.BaseURL = role.Model, llm.EndpointFor(start.Model, start.BaseURL, role.Model)
	}
	if role.MaxTurns > 0 {
		start.MaxTurns = role.MaxTurns
	}
	start.Task = brief(handle, role.Name, s.cfg.handle(), req, len(inherited) > 0)
	c := &childAgent{start: start, inherited: inherited, rec: agentRecord{Task: task, Handle: handle, Session: start.ID,
		Role: role.Name, State: messages.AgentQueued, Background: req.Background, Spawned: time.Now().UTC()}}
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
		case depth >= s.kids.delegation.Limits.MaxDepth && isAgentTool(t):
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

// sessionAllowlist is what "allow-session" answers allowed so far: the executor's gate decides,
// and tells the session each time the list grows (SessionAllowlist).
func (s *session) sessionAllowlist() []string { return slices.Clone(s.kids.allowlist) }

// startChild builds the child's dependencies and spawns it under this session. A child that
// cannot start ends at once with a failed result: the parent never hangs on it.
func (s *session) startChild(ctx actor.Context, c *childAgent) {
	c.rec.State = messages.AgentRunning
	c.began = time.Now()
	deps, err := s.kids.delegation.NewChild(c.start)
	if err != nil {
		s.saveChild(c)
		s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
			Status: messages.AgentFailed, Error: "the agent could not start: " + err.Error()})
		return
	}
	deps.Inherited, deps.Worktree, deps.ReportTo = c.inherited, c.wt, ctx.Self()
	c.inherited = nil
	pid, err := ctx.SpawnNamed(actor.PropsFromProducer(newSession(newSessionConfig(c.start), deps)), "agent-"+c.rec.Task)
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
	free := s.kids.delegation.Limits.MaxRunning - s.kids.running()
	for _, c := range s.kids.inOrder() {
		if free <= 0 || s.finished() {
			return
		}
		if c.rec.State == messages.AgentQueued {
			s.startChild(ctx, c)
			free = s.kids.delegation.Limits.MaxRunning - s.kids.running()
		}
	}
}

// onAgentResult records a child's projected result (it arrives on this session's inbox),
// announces it, wakes the waits it completes, starts queued children, and lets a turn that
// waited for it go on.
func (s *session) onAgentResult(ctx actor.Context, r *messages.AgentResult) {
	task := r.Handle[strings.LastIndexByte(r.Handle, '/')+1:]
	c := s.kids.get(task)
	if c == nil || c.rec.Session != r.Session || messages.AgentFinal(c.rec.State) {
		return // not ours, or already ended (a late duplicate)
	}
	if r.Usage.DurationMS == 0 && !c.began.IsZero() {
		r.Usage.DurationMS = time.Since(c.began).Milliseconds()
	}
	c.rec.State, c.rec.Result = r.Status, r
	s.saveChild(c)
	s.emit(messages.AgentFinishedEvent.Of(r))
	s.answerWaiters(ctx, false)
	s.startQueued(ctx)
	s.afterAgentsChanged(ctx)
}

// childStopped is a child's actor ending. Terminated is a system message and overtakes the
// mailbox, but the child's result (sent to this mailbox before it stopped) is already queued:
// childGone, queued now, comes after it. A child that ended without a result (it crashed for
// good) gets one written for it, so the parent never hangs; no timer decides that a slow
// result is lost.
func (s *session) childStopped(ctx actor.Context, who *actor.PID) bool {
	c := s.kids.byPID(who)
	if c == nil {
		return false
	}
	c.pid = nil
	if !messages.AgentFinal(c.rec.State) {
		ctx.Send(ctx.Self(), &childGone{task: c.rec.Task})
	}
	return true
}

func (s *session) onChildGone(ctx actor.Context, msg *childGone) {
	c := s.kids.get(msg.task)
	if c == nil || messages.AgentFinal(c.rec.State) {
		return
	}
	s.onAgentResult(ctx, &messages.AgentResult{Handle: c.rec.Handle, Session: c.rec.Session, Role: c.rec.Role,
		Status: messages.AgentInterrupted, Error: "the agent stopped without reporting a result"})
}

// saveChild stores a child's record; a failure is logged (the child still runs and reports).
func (s *session) saveChild(c *childAgent) {
	if err := s.deps.Store.PutAgentRecord(s.cfg.ID, c.rec.Task, &c.rec); err != nil {
		s.deps.Log.Warn("record subagent", "session", s.cfg.ID, "agent", c.rec.Handle, "err", err)
	}
}

// deliverResults puts the results that came in since the last model call into the context, as
// one note: the projection of each child, never its transcript.
func (s *session) deliverResults() error {
	ready := s.kids.undelivered()
	if len(ready) == 0 {
		return nil
	}
	parts := make([]string, 0, len(ready))
	for _, c := range ready {
		parts = append(parts, tools.FormatAgentResult(c.rec.Result))
	}
	if err := s.commit(noteEntry("Subagent results:\n\n" + strings.Join(parts, "\n\n"))); err != nil {
		return err
	}
	for _, c := range ready {
		c.rec.Result.Delivered = true
		s.saveChild(c)
	}
	return nil
}

// restoreChildren reloads the records of a resumed session's children: finished ones keep
// their results (delivered at the next call if the model has not seen them); ones that were
// still running when the session stopped are marked interrupted.
func (s *session) restoreChildren() error {
	var recs []agentRecord
	err := s.deps.Store.EachAgentRecord(s.cfg.ID, func(raw []byte) error {
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
		s.kids.add(c)
	}
	return nil
}
