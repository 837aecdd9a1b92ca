package actors

import (
	"time"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// sessionConfig is a session's start as the session uses it. The Node (the supervisor for a
// top-level session, the parent for a subagent) builds it once from the wire's StartSession
// with newSessionConfig, defaults resolved; the session never reads the wire message. Only
// the mode (/mode), the model and the prompt mode (/model, /prompt) change after start.
type sessionConfig struct {
	// ID is the session's id; Agent its handle ("" is the root); Parent the parent session's
	// id ("" for a top-level session).
	ID, Agent, Parent string
	// Task is the first input (empty on resume and after a restart); Goal the objective set at
	// start (troupe run --goal).
	Task, Goal string
	// Model and BaseURL are as asked ("provider/model"; SessionDeps.Model is the resolved one);
	// PromptMode is the prompt mode asked for ("" keeps the stored or the default one).
	Model, BaseURL, PromptMode string
	Mode                       messages.Mode
	// Workspace is the root of the session's tools; Cwd the directory the user ran troupe
	// from, relative to it; Worktree the git worktree a subagent runs in.
	Workspace, Cwd, Worktree string
	// Interactive sessions wait for more input after a final answer; Resume continues a stored
	// log; LoopStep is one iteration of troupe loop.
	Interactive, Resume, LoopStep bool
	// Yes answers approvals with allow; NoRepair switches turn repair off.
	Yes, NoRepair bool
	// Allow, Ask and Deny are the configured permission patterns.
	Allow, Ask, Deny []string
	// Env is the environment of the client that started the session (its subagents get it too).
	Env *messages.ClientEnv
	// Placement is where this session's subagents run ([agents] placement).
	Placement string

	role   roleConfig
	limits sessionLimits
	check  checkConfig
}

// roleConfig is a subagent's role: its prompt, its tools (nil: all the node's), its depth under
// the root, and how it reports.
type roleConfig struct {
	Name, Prompt string
	Tools        []string
	Depth        int
	AskUser      bool // approvals may go to the user (a child of an interactive parent)
	PlanSafeBash bool
	Verdict      bool // the report must end with a verdict line

}

// sessionLimits are the session's budgets, resolved: 0 is no limit unless a default is named.
type sessionLimits struct {
	MaxTurns  int
	MaxTokens int
	MaxWall   time.Duration
	// IdleGap is the idle time after which old tool outputs become previews (0: projection's
	// default, negative: never).
	IdleGap time.Duration
	// ContextWindow overrides the model's window (tokens); 0 keeps it.
	ContextWindow int
}

// checkConfig is the definition of done as configured: the check command, its timeout, and
// how many final answers may be refused before the run fails.
type checkConfig struct {
	Command     string
	Timeout     time.Duration
	MaxRefusals int
}

// Defaults of the start's zero values.
const (
	defaultMaxRefusals = 3
	defaultCheckS      = 600
)

// newSessionConfig resolves a start request into the session's configuration.
func newSessionConfig(st *messages.StartSession) sessionConfig {
	c := sessionConfig{ID: st.ID, Agent: st.Agent, Parent: st.Parent, Task: st.Task, Goal: st.Goal,
		Model: st.Model, BaseURL: st.BaseURL, PromptMode: st.PromptMode, Mode: st.Mode,
		Workspace: st.Workspace, Cwd: st.Cwd, Worktree: st.Worktree,
		Interactive: st.Interactive, Resume: st.Resume, LoopStep: st.LoopStep, Yes: st.Yes, NoRepair: st.NoRepair,
		Allow: st.Allow, Ask: st.Ask, Deny: st.Deny, Env: st.Env, Placement: st.Placement,
		role: roleConfig{Name: st.Role, Prompt: st.RolePrompt, Tools: st.Tools, Depth: st.Depth, AskUser: st.AskUser,
			PlanSafeBash: st.PlanSafeBash, Verdict: st.Verdict},
		limits: sessionLimits{MaxTurns: st.MaxTurns, MaxTokens: st.MaxTokens, MaxWall: time.Duration(st.MaxWallS) * time.Second,
			ContextWindow: st.ContextWindow},
		check: checkConfig{Command: st.Check, Timeout: time.Duration(st.CheckS) * time.Second, MaxRefusals: st.MaxRefusals},
	}
	switch {
	case st.IdleGapS < 0:
		c.limits.IdleGap = -1
	case st.IdleGapS > 0:
		c.limits.IdleGap = time.Duration(st.IdleGapS) * time.Second
	}
	if c.limits.MaxTurns <= 0 {
		c.limits.MaxTurns = defaultMaxTurns
	}
	if c.check.Timeout <= 0 {
		c.check.Timeout = defaultCheckS * time.Second
	}
	if c.check.MaxRefusals <= 0 {
		c.check.MaxRefusals = defaultMaxRefusals
	}
	return c
}

// wire is the start request this configuration answers, for the Node's setup builder (a
// /model or /prompt switch rebuilds the provider, tools and prefix from it).
func (c *sessionConfig) wire() *messages.StartSession {
	idle := int(c.limits.IdleGap / time.Second)
	if c.limits.IdleGap < 0 {
		idle = -1
	}
	return &messages.StartSession{ID: c.ID, Task: c.Task, Model: c.Model, BaseURL: c.BaseURL, Mode: c.Mode,
		PromptMode: c.PromptMode, Workspace: c.Workspace, Cwd: c.Cwd, Interactive: c.Interactive, Resume: c.Resume,
		MaxTurns: c.limits.MaxTurns, Agent: c.Agent, Parent: c.Parent, Allow: c.Allow, Ask: c.Ask, Deny: c.Deny,
		Yes: c.Yes, NoRepair: c.NoRepair, Role: c.role.Name, RolePrompt: c.role.Prompt, Tools: c.role.Tools,
		Depth: c.role.Depth, MaxTokens: c.limits.MaxTokens, MaxWallS: int(c.limits.MaxWall / time.Second),
		AskUser: c.role.AskUser, PlanSafeBash: c.role.PlanSafeBash, Verdict: c.role.Verdict, Worktree: c.Worktree,
		ContextWindow: c.limits.ContextWindow, IdleGapS: idle, Goal: c.Goal, Check: c.check.Command,
		CheckS: int(c.check.Timeout / time.Second), MaxRefusals: c.check.MaxRefusals, LoopStep: c.LoopStep, Env: c.Env,
		Placement: c.Placement}
}

// handle is the session's agent handle: root, or root/a/b for a subagent.
func (c *sessionConfig) handle() string {
	if c.Agent == "" {
		return "root"
	}
	return c.Agent
}

// mode is the session's permission mode now, ask when none was named: a switch (switchMode)
// updates Mode as it hands the new mode to the executor's gate.
func (c *sessionConfig) mode() messages.Mode {
	if c.Mode == "" {
		return messages.ModeAsk
	}
	return c.Mode
}

// restarted is the configuration of a new incarnation after a panic: it resumes from the
// store and must not replay the task.
func (c sessionConfig) restarted() sessionConfig {
	c.Resume, c.Task = true, ""
	return c
}

// overTokens reports whether a session with meta spent its token budget.
func (l sessionLimits) overTokens(meta *store.SessionMeta) bool {
	return l.MaxTokens > 0 && meta != nil && meta.InputTokens+meta.OutputTokens > l.MaxTokens
}
