package actors

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// Admitting a child: the decisions of spawn_agent that need no actor — the task name, the
// depth, the role, the tools, the mode, the context slice and the child's start request.

var taskNamePattern = lazyre.New(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// childParent is what a spawn takes from the parent session.
type childParent struct {
	cfg       *sessionConfig
	workspace string
	tools     []string             // the parent's tool names
	history   func() []llm.Message // what the model sees of the history, for fork and partial
}

// prepare turns a request into a child of parent: its role, tools (the role's, within the
// parent's), mode (the stricter of the two), model and context slice. Its worktree, if it
// wants one, is made by the session (onSpawnAgent).
func (k *children) prepare(req *messages.SpawnAgent, parent childParent) (*childAgent, []string, error) {
	d, cfg := k.delegation, parent.cfg
	if d == nil || d.NewChild == nil {
		return nil, nil, fmt.Errorf("this session cannot run subagents")
	}
	depth := cfg.role.Depth + 1
	if depth > d.Limits.MaxDepth {
		return nil, nil, fmt.Errorf("depth limit reached: %s is at depth %d of %d and cannot spawn; do this work yourself", cfg.handle(), cfg.role.Depth, d.Limits.MaxDepth)
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
	task := k.freeTaskName(req.TaskName)
	if task != req.TaskName {
		notes = append(notes, fmt.Sprintf("task_name %s is taken: this one is %s", req.TaskName, task))
	}
	toolNames, dropped := k.childTools(parent.tools, role, depth)
	if len(dropped) > 0 {
		notes = append(notes, fmt.Sprintf("role %s asks for tools this session lacks, dropped: %s", role.Name, strings.Join(dropped, ", ")))
	}
	inherited, err := childContext(req, parent.history)
	if err != nil {
		return nil, nil, err
	}
	handle := cfg.handle() + "/" + task
	mode := messages.Mode(config.StricterMode(string(cfg.mode()), role.Mode))
	if role.PlanSafeBash {
		mode = messages.ModePlan // reads, plus commands that cannot write the workspace (see tools.Policy)
	}
	start := &messages.StartSession{
		ID: cfg.ID + "-" + task, Model: cfg.Model, BaseURL: cfg.BaseURL,
		Mode: mode, Workspace: parent.workspace, Cwd: cfg.Cwd, // a child reads the instructions its parent was given
		Agent: handle, Parent: cfg.ID, Role: role.Name, RolePrompt: role.Prompt, Tools: toolNames,
		Depth: depth, MaxTokens: d.Limits.MaxTokens, MaxWallS: int(d.Limits.MaxWall / time.Second),
		Allow: append(slices.Clone(cfg.Allow), k.sessionAllowlist()...), Ask: cfg.Ask, Deny: cfg.Deny,
		Yes: cfg.Yes, AskUser: cfg.Interactive || cfg.role.AskUser, NoRepair: cfg.NoRepair,
		PlanSafeBash: role.PlanSafeBash, Verdict: role.Verdict,
		MaxTurns: d.Limits.MaxTurns, Env: cfg.Env, Placement: cfg.Placement,
	}
	if role.Model != "" {
		start.Model, start.BaseURL = role.Model, llm.EndpointFor(start.Model, start.BaseURL, role.Model)
	}
	if role.MaxTurns > 0 {
		start.MaxTurns = role.MaxTurns
	}
	start.Task = brief(handle, role.Name, cfg.handle(), req, len(inherited) > 0)
	// The child's start is a SpawnTask wherever it runs (docs/ARCHITECTURE.md "Subagents on
	// workers"): a local child starts from its Start, a remote one is sent as it is.
	st := &messages.SpawnTask{ID: start.ID, ParentNode: d.Node, Parent: cfg.ID, Start: *start,
		Writes: childWrites(mode, role.PlanSafeBash)}
	c := &childAgent{task: st, start: &st.Start, inherited: inherited, rec: agentRecord{Task: task, Handle: handle, Session: start.ID,
		Role: role.Name, State: messages.AgentQueued, Background: req.Background, Spawned: time.Now().UTC()},
		roleMode: role.Mode, wantsWorktree: req.Worktree, place: placeInput{configured: cfg.Placement, pinned: role.Placement, writes: childWrites(mode, role.PlanSafeBash),
			long: req.Background || req.Worktree}}
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
func (k *children) childTools(mine []string, role config.Role, depth int) (names, dropped []string) {
	want := role.Tools
	if want == nil {
		want = mine
	}
	for _, t := range want {
		switch {
		case !slices.Contains(mine, t):
			dropped = append(dropped, t)
		case depth >= k.delegation.Limits.MaxDepth && isAgentTool(t):
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
func (k *children) sessionAllowlist() []string { return slices.Clone(k.allowlist) }
