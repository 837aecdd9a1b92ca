package tools

import (
	"context"
	"encoding/json"
	"fmt"
)

// getGoal is get_goal: the session's objective and its status.
type getGoal struct{}

func (getGoal) Spec() Spec {
	return Spec{
		Name:        "get_goal",
		Description: "Show the session's goal (objective and status), set by the user.",
		Schema:      json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		Risk:        RiskRead,
	}
}

func (getGoal) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	goals, bad := goalsOf(env, "get_goal")
	if bad != nil {
		return *bad
	}
	g, err := goals.Goal(ctx)
	if err != nil {
		return errorResult(fmt.Sprintf("get_goal: %v", err))
	}
	return Result{Output: FormatGoal(g)}
}
