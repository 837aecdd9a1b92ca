package actors

import (
	"fmt"
	"github.com/troupe-dev/troupe/internal/memory"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/hooks"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// Session phases (docs/ARCHITECTURE.md, "The session: a thin coordinator"). The actor's behavior is switched with Become as a turn moves
// through them; messages that make no sense in a phase are ignored there.
const (
	phaseIdle       = messages.PhaseIdle
	phaseCalling    = messages.PhaseCalling
	phaseExecuting  = messages.PhaseExecuting
	phaseWaiting    = messages.PhaseWaiting
	phaseCompacting = messages.PhaseCompacting
	phaseChecking   = messages.PhaseChecking
	phaseFinished   = messages.PhaseFinished
)

// SessionDeps is what a Session needs from its Node.
type SessionDeps struct {
	Store  *store.Store
	Bridge *Bridge
	// Steer checks who may steer the session (steer.go); nil: the Node's keys (Bridge's).
	Steer    *steerKeys
	Provider llm.Provider
	// Model is the full provider/model string, stamped on assistant messages; ModelName is what
	// the provider is asked for.
	Model, ModelName string
	Tools            *tools.Registry
	// Workspace is the root the session's tools work in (fixed for its life). The tools'
	// environment and the permission gate are the executor's alone: Executor builds it, and
	// the session asks it by message (toolexec_env.go).
	Workspace string
	Executor  ExecutorFactory
	// Runs are the Node's runners, the session's mailbox runs go on (mailbox_stack.go; nil:
	// a goroutine each).
	Runs *runners
	// Sandbox is the node's confinement of commands (shown by /doctor and /permissions; nil
	// runs them directly); Skills are the skills the session started with (shown by /tools).
	// Both are fixed values read at start, not the executor's state.
	Sandbox tools.Sandbox
	Skills  []config.Skill
	// SkillProblems are the broken SKILL.md files skipped at the start, in plain words.
	SkillProblems []string
	System        string
	Retry         llm.RetryPolicy
	Log           *slog.Logger
	// Delegation lets the session run subagents; nil means it cannot.
	Delegation *Delegation

	// Instructions are the instruction files of the stable prefix; the session hands out the
	// nested ones from a copy of its own (session_instructions.go).
	Instructions *config.Instructions
	// Inherited is the context slice a subagent starts with (fork, partial); Worktree is the
	// git worktree it runs in. Both are set by the parent that spawns it.
	Inherited []llm.Message
	Worktree  *worktree.Worktree
	// ReportTo is the parent session's actor: a child's result goes straight to its mailbox,
	// ahead of the Terminated that follows, so it is never overtaken or lost (see children.stopped).
	// Supervisor is the actor that started a top-level session; it hears of its start and end.
	ReportTo, Supervisor *actor.PID
	// RemoteParent marks a child run on a worker for a parent on another Node: what its parent
	// says after the start (allowlist growth) arrives over the bus, on the worker's inbox for
	// it, which only the dispatching Node may publish (docs/ARCHITECTURE.md "Subagents on
	// workers").
	RemoteParent bool
	// Narrowed are the Node's tools this session does not have (for /tools); Setup rebuilds
	// the provider, tools and prefix when /model or /prompt switches (nil: they only show).
	Narrowed    []NarrowedTool
	Setup       func(*messages.StartSession) (*SessionSetup, error)
	PromptModes func() ([]config.PromptMode, error)
	// MCP asks the Node's MCP servers their state (for /mcp), safe to call off the actor; nil
	// when none are configured.
	MCP func() []*messages.MCPServerStatus
	// MCPWatch asks the Node's MCP servers to tell this session when their tools change
	// (mcp_watch.go); nil without servers.
	MCPWatch func(*actor.PID)
	// MCPPrompts finds and fills the MCP servers' prompts for the prompt commands, safe to
	// call off the actor; nil without servers.
	MCPPrompts mcpPrompter
	// Hooks are the project's hooks, fixed for the Node's life: the session reads which events
	// have one (and /hooks lists them); its executor runs them (session_hooks.go).
	Hooks *hooks.Set
	// Memory is the cross-session memory /memory shows and changes (nil: a subagent);
	// Notices are lines for the user at the start (a memory left out of the prompt, and why),
	// emitted as non-fatal error events after session.started.
	Memory  *memory.Keeper
	Notices []string
	// Lessons are the project's lessons for a top-level session; nil: none learnt or given.
	Lessons *LessonBook
}

// session is the Session actor: it owns one conversation, runs its turns, and is the only
// writer of its log and the only emitter of its events (which is what keeps seq gap-free).
type session struct {
	deps     SessionDeps
	cfg      sessionConfig // the start, resolved once (session_config.go)
	behavior actor.Behavior
	phase    messages.Phase

	links   sessionLinks // the other actors and the bus
	meta    *store.SessionMeta
	items   []projection.Item // the log as the model may see it: messages and compact boundaries
	turn    int               // turns of this run; meta.Turns counts all runs
	cur     turnState         // the turn in flight and its steering (turn_state.go)
	hooks   hookGate          // the project's hooks at the session's moments (hook_gate.go)
	budget  contextBudget     // the context window (budget.go)
	done    doneGate          // the goal and the definition of done (session_goal.go, session_done.go)
	kids    *children         // subagents this session started (session_agents.go)
	asChild childState        // this session as a subagent of another (session_child.go)

	nested nestedInstructions // nested instruction files handed out (session_instructions.go)
	mcp    mcpRefresh         // MCP tools changed, taken in between turns (mcp_watch.go)
	user   userState          // the chat's own calls: !command, @path (session_usercalls.go)
	learn  *sessionLessons    // the learning layer; nil when off (session_lessons.go)

	view projection.Projector // items as the next model call sees them, kept between calls
}

// newSession returns the producer of a Session actor. The producer is called again when the
// actor is restarted after a panic: the new incarnation resumes from the store (it must not
// replay the task) and keeps the event numbering, so seq stays gap-free across the restart.
func newSession(cfg sessionConfig, deps SessionDeps) actor.Producer {
	var emitter *messages.Emitter
	incarnation := 0
	return func() actor.Actor {
		c := cfg
		if incarnation > 0 {
			c = cfg.restarted()
		}
		incarnation++
		s := &session{deps: deps, cfg: c, behavior: actor.NewBehavior(), links: sessionLinks{emitterHome: &emitter},
			kids: newChildren(), done: newDoneGate(&c), asChild: childState{hasParent: c.Parent != "", verdict: c.role.Verdict}}
		if deps.Delegation != nil {
			d := *deps.Delegation
			d.Limits = d.Limits.withDefaults()
			s.kids.delegation = &d
		}
		s.cur.newSteer, s.cur.describe = steeringFor(&s.deps, c.NoRepair), callDataFor(&s.deps, c.NoRepair)
		s.behavior.Become(s.idle)
		return s
	}
}

// Receive handles what every phase handles the same way, then dispatches to the phase.
func (s *session) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		s.started(ctx)
	case *actor.Stopping:
		s.stopping(ctx)
	case *actor.Restarting:
		s.restarting()
	case *messages.StatusRequest:
		ctx.Respond(s.status())
	case *actor.Terminated:
		s.childTerminated(ctx, msg)
	case *messages.SpawnAgent:
		s.onSpawnAgent(ctx, msg)
	case *messages.WaitAgents:
		s.takeKidsStep(ctx, s.kids.waitFor(s.cfg.handle(), ctx.Sender(), msg))
	case *messages.SendAgent:
		s.onSendAgent(ctx, msg)
	case *messages.CancelAgent:
		s.takeKidsStep(ctx, s.kids.cancel(s.cfg.handle(), msg, time.Now()))
	case *messages.ListAgents:
		s.respond(ctx, s.kids.list(time.Now()))
	case *messages.AgentResult:
		s.takeKidsStep(ctx, s.kids.result(s.cfg.handle(), msg, time.Now()))
	case *dispatchOutcome:
		s.takeKidsStep(ctx, s.kids.refused(msg, s.cfg.handle(), s.finished(), time.Now()))
	case *childPlaced:
		s.takeKidsStep(ctx, s.kids.placed(msg))
	case *childGone:
		s.takeKidsStep(ctx, s.kids.gone(s.cfg.handle(), msg.task, time.Now()))
	case *waitExpired:
		s.takeKidsStep(ctx, s.kids.expired(s.cfg.handle(), msg.id))
	case *wallBudgetExpired: // the model call stops at once: SessionEnd hooks may hold the finish
		s.cur.stopWork()
		s.takeTurnStep(ctx, s.asChild.wallSpent(s.finished()))
	case *lessonStored:
		s.emit(s.learn.stored(msg, s.finished()))
	case *finishHeld:
		s.completeFinish(ctx, msg.out)
	case *messages.GetGoal:
		s.respond(ctx, &messages.GoalReply{Goal: s.done.goal})
	case *messages.UpdateGoal:
		s.onUpdateGoal(ctx, msg)
	case *messages.Approve:
		s.takeTurnStep(ctx, s.cur.approve(msg, s.cfg.ID))
	case *messages.SetMode: // the answer is the status after the switch
		st, err := s.cfg.switchMode(msg)
		st.respond = replyTo(err, s.status())
		s.takeTurnStep(ctx, st)
		if err == nil {
			s.takeKidsStep(ctx, s.kids.modeChanged(s.cfg.Mode, s.cfg.handle()))
		}
	case *messages.SessionAllowlist:
		s.onSessionAllowlist(ctx, msg)
	case *messages.MCPToolsChanged:
		s.onMCPToolsChanged(ctx, msg)
	case *messages.HooksRan:
		s.onHooksRan(ctx, msg)
	case *messages.FilesRechecked: // in any phase: an answer asked ahead may come early (turn_recheck.go)
		if s.fromExecutor(ctx) {
			s.takeTurnStep(ctx, s.cur.filesAnswer(s.turn, msg))
		}
	case *messages.ToolStarted, *messages.ToolResult, *messages.ApprovalNeeded, *messages.ToolDecision,
		*messages.CheckResult:
		if s.fromExecutor(ctx) {
			s.behavior.Receive(ctx) // each is awaited by one phase
		}
	default:
		s.behavior.Receive(ctx)
	}
	s.failOnLostEvent(ctx) // an event the bus refused ends the session (large.go)
	s.applyMCPRefresh(ctx) // changed MCP tools are taken in once the session is idle
}

// idle waits for input.
func (s *session) idle(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.UserInput:
		if ack := s.routeInput(ctx, msg.Text); ack != nil && ctx.Sender() != nil {
			ctx.Respond(ack) // nil: the command answers later (commandHost.Later)
		}
	case *messages.Cancel:
		// Nothing runs: for an interactive session this is the end of the conversation.
		s.asChild.cancelRequested = true
		s.takeKidsStep(ctx, s.kids.cancelAll(s.cfg.handle(), "the parent session ended", time.Now()))
		if ctx.Sender() != nil {
			ctx.Respond(&messages.InputAck{Routed: messages.RoutedCommand, Output: "session ended"})
		}
		s.finish(ctx, &messages.SessionFinishedData{Status: messages.StatusDone, Final: lastAnswer(s.items)})
	}
}

// calling waits for the model's reply, streaming its deltas out as events.
func (s *session) calling(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *modelEvent:
		s.emit(s.cur.streamed(s.turn, msg))
	case *modelRetry:
		s.emit(s.cur.retried(s.turn, msg))
	case *modelDone:
		s.onModelDone(ctx, msg)
	case *recheckExpired:
		s.onRecheckExpired(ctx, msg)
	case *messages.Cancel:
		s.cancelTurn(ctx, msg)
	case *messages.UserInput:
		s.busy(ctx)
	}
}

// executing waits for the results of the turn's tool calls.
func (s *session) executing(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.ToolStarted:
		s.emit(s.cur.toolStarted(s.turn, msg, time.Now()))
	case *messages.ToolResult:
		s.onToolResult(ctx, msg)
	case *messages.ApprovalNeeded:
		s.emit(s.cur.approvalNeeded(msg))
	case *messages.ToolDecision:
		s.takeTurnStep(ctx, s.cur.decided(s.turn, msg))
	case *messages.Cancel:
		s.cancelTurn(ctx, msg)
	case *messages.UserInput:
		s.busy(ctx)
	}
}

// waiting holds the next model call until the subagents it waits for have ended
// (takeKidsStep moves on).
func (s *session) waiting(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.Cancel:
		s.cancelTurn(ctx, msg)
	case *messages.UserInput:
		s.busy(ctx)
	}
}

// finishedPhase ignores everything: the session is stopping.
func (s *session) finishedPhase(ctx actor.Context) {
	if ctx.Sender() != nil {
		ctx.Respond(&messages.ErrorReply{Error: "the session has finished"})
	}
}

// become moves the session to a phase. A finished session stays finished: nothing that runs
// after the outcome was recorded can revive it.
func (s *session) become(phase messages.Phase, fn actor.ReceiveFunc) {
	if s.finished() {
		return
	}
	s.phase = phase
	s.behavior.Become(fn)
}

// finished reports whether the session recorded its outcome (finish ran).
func (s *session) finished() bool { return s.phase == phaseFinished }

func (s *session) busy(ctx actor.Context) {
	if ctx.Sender() != nil {
		ctx.Respond(&messages.InputAck{Routed: messages.RoutedBusy, Output: "a turn is running; wait for it or cancel it"})
	}
}

// status is answered locally, without a model call.
func (s *session) status() *messages.StatusReply {
	r := &messages.StatusReply{Session: s.cfg.ID, Phase: s.phase, Model: s.deps.Model, Mode: s.cfg.mode(),
		ContextWindow: s.deps.window(s.cfg.limits.ContextWindow), Compactions: s.budget.compactions, Goal: s.done.goal, Agents: s.kids.running(), Pending: s.cur.batch.Pending(),
		Repairs: repairStatus(s.cur.steer, s.deps.Model)}
	s.instructions() // the copy is made on first use
	s.nested.status(r)
	r.Skills, r.Warnings = skillNames(s.deps.Skills), s.deps.SkillProblems
	if s.meta != nil {
		r.Turns, r.InputTokens, r.OutputTokens = s.meta.Turns, s.meta.InputTokens, s.meta.OutputTokens
		r.ContextTokens = s.budget.tokensOf(s.request())
	}
	return r
}

// formatStatus is /status for people.
func formatStatus(st *messages.StatusReply) string {
	goal := "none"
	if g := st.Goal; g != nil && g.Status != messages.GoalCleared {
		goal = fmt.Sprintf("%s (%s)", g.Objective, g.Status)
	}
	pct := 0.0
	if st.ContextWindow > 0 {
		pct = 100 * float64(st.ContextTokens) / float64(st.ContextWindow)
	}
	repairs := st.Repairs
	if repairs == "" {
		repairs = "no tool calls yet"
	}
	return fmt.Sprintf("session     %s\nmodel       %s\nmode        %s\nphase       %s\ncontext     %.0f%% (%d of %d tokens)\n"+
		"compactions %d\ntokens      %d in, %d out over %d turns\ngoal        %s\nagents      %d running\nrepairs     %s",
		st.Session, st.Model, st.Mode, st.Phase, pct, st.ContextTokens, st.ContextWindow, st.Compactions,
		st.InputTokens, st.OutputTokens, st.Turns, goal, st.Agents, repairs) + formatInstructionStatus(st) + formatSkillStatus(st)
}

// emit publishes events in order (none for the zero Payload). One that cannot be published
// (monitors see a fatal error event under its seq instead) fails the session once the message
// at hand is handled.
func (s *session) emit(ps ...messages.Payload) {
	for _, p := range ps {
		if s.links.emitter == nil || p.EventType() == "" {
			continue
		}
		if _, err := s.links.emitter.Emit(p); err != nil {
			s.deps.Log.Error("emit event", "session", s.cfg.ID, "type", p.EventType(), "err", err)
			if s.links.lostEvent == nil {
				s.links.lostEvent = err
			}
		}
		s.emit(s.learn.observe(p, s.turn)...)
	}
}
