package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/messages"
)

// spawnAgent is spawn_agent: it opens a child session (docs/DESIGN-NOTES.md "Subagents") and
// returns its handle at once. The child runs in parallel with its siblings; unless background is
// set, the parent's next model call waits for it and sees its projected result.
type spawnAgent struct{}

func (spawnAgent) Spec() Spec {
	return Spec{
		Name: "spawn_agent",
		Description: "Start a subagent on a task; returns its handle at once. Several spawn_agent calls in one reply run in parallel. " +
			"agent_type: explorer (read-only search), planner (read-only, returns a plan), verifier (read-only + tests; returns pass/fail with evidence), " +
			"worker (makes changes), reviewer (read-only findings), or a custom role. context: fresh (default: the message is all it knows, so brief it fully: goal, files, what was tried, what to return), " +
			"fork (your history; the message is the next directive), partial (your last fork_turns turns). " +
			"Without background your next turn waits for its result; with background you continue and collect it with wait_agent. worktree runs it in its own git worktree and branch.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"task_name":{"type":"string","pattern":"^[a-z0-9][a-z0-9_-]{0,39}$","description":"short snake_case name; the handle is root/<task_name>"},` +
			`"agent_type":{"type":"string","description":"role: explorer, planner, verifier, worker, reviewer, or a custom one"},` +
			`"message":{"type":"string","minLength":1,"description":"the task"},` +
			`"context":{"type":"string","enum":["fresh","fork","partial"]},` +
			`"fork_turns":{"type":"integer","minimum":1,"description":"with context partial: how many of your last turns it gets (default 3)"},` +
			`"background":{"type":"boolean"},` +
			`"worktree":{"type":"boolean"}},` +
			`"required":["task_name","agent_type","message"],"additionalProperties":false}`),
		Risk: RiskDelegate,
	}
}

func (spawnAgent) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a messages.SpawnAgent
	if bad := decodeArgs("spawn_agent", raw, &a); bad != nil {
		return *bad
	}
	agents, bad := agentsOf(env, "spawn_agent")
	if bad != nil {
		return *bad
	}
	acc, err := agents.Spawn(ctx, &a)
	if err != nil {
		return errorResult(fmt.Sprintf("spawn_agent %s: %v", a.TaskName, err))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, model %s)\ntools: %s", acc.Handle, acc.State, acc.Model, strings.Join(acc.Tools, ", "))
	for _, n := range acc.Notes {
		fmt.Fprintf(&b, "\nnote: %s", n)
	}
	if a.Background {
		b.WriteString("\nIt runs in the background: collect its result with wait_agent.")
	} else {
		b.WriteString("\nIts result comes to you before your next turn.")
	}
	return Result{Output: b.String()}
}
