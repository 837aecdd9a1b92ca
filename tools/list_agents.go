package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// listAgents is list_agents: the session's children and their states.
type listAgents struct{}

func (listAgents) Spec() Spec {
	return Spec{
		Name:        "list_agents",
		Description: "List your subagents with their role, state, turns and elapsed time.",
		Schema:      json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		Risk:        RiskDelegate,
	}
}

func (listAgents) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	agents, bad := agentsOf(env, "list_agents")
	if bad != nil {
		return *bad
	}
	list, err := agents.List(ctx)
	if err != nil {
		return errorResult(fmt.Sprintf("list_agents: %v", err))
	}
	if len(list.Agents) == 0 {
		return Result{Output: "no subagents"}
	}
	var b strings.Builder
	for _, a := range list.Agents {
		fmt.Fprintf(&b, "%s  %s  %s  %d turns  %s", a.Handle, a.Role, a.State, a.Turns,
			(time.Duration(a.ElapsedMS) * time.Millisecond).Round(time.Second))
		if a.Worktree != "" {
			fmt.Fprintf(&b, "  worktree %s", a.Worktree)
		}
		if a.Background {
			b.WriteString("  background")
		}
		b.WriteByte('\n')
	}
	return Result{Output: strings.TrimRight(b.String(), "\n")}
}
