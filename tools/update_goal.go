package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/troupe-dev/troupe/messages"
)

// updateGoal is update_goal: the model's only move on the goal is to complete it, with the
// evidence that it is done. The session refuses a completion without evidence, or of a goal
// that is not active.
type updateGoal struct{}

func (updateGoal) Spec() Spec {
	return Spec{
		Name:        "update_goal",
		Description: "Mark the goal complete once it is met and verified. evidence: what shows it is done (commands run and their outcome, files changed). Only the user can set, pause or clear a goal.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"status":{"type":"string","enum":["complete"]},` +
			`"evidence":{"type":"string","description":"commands run and their outcome, files changed"}},` +
			`"required":["status","evidence"],"additionalProperties":false}`),
		Risk: RiskRead,
	}
}

func (updateGoal) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a messages.UpdateGoal
	if bad := decodeArgs("update_goal", raw, &a); bad != nil {
		return *bad
	}
	goals, bad := goalsOf(env, "update_goal")
	if bad != nil {
		return *bad
	}
	g, err := goals.UpdateGoal(ctx, &a)
	if err != nil {
		return errorResult(fmt.Sprintf("update_goal refused: %v", err))
	}
	return Result{Output: "goal complete.\n" + FormatGoal(g)}
}
