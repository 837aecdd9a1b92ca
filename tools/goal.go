package tools

import (
	"context"
	"fmt"

	"github.com/troupe-dev/troupe/messages"
)

// GoalControl is the session behind get_goal and update_goal. Users own the goal's lifecycle
// (set, pause, resume, clear); the model may only read it and complete it with evidence.
type GoalControl interface {
	Goal(ctx context.Context) (*messages.Goal, error)
	UpdateGoal(ctx context.Context, req *messages.UpdateGoal) (*messages.Goal, error)
}

// GoalTools returns get_goal and update_goal.
func GoalTools() []Tool { return []Tool{getGoal{}, updateGoal{}} }

// FormatGoal is how the model sees a goal.
func FormatGoal(g *messages.Goal) string {
	if g == nil || g.Status == messages.GoalCleared {
		return "no goal is set"
	}
	s := fmt.Sprintf("objective: %s\nstatus: %s", g.Objective, g.Status)
	if g.Evidence != "" {
		s += "\nevidence: " + g.Evidence
	}
	switch g.Status {
	case messages.GoalActive:
		s += "\nWhen the objective is met and verified, call update_goal with status \"complete\" and the evidence (commands run and their outcome, files changed)."
	case messages.GoalPaused:
		s += "\nThe user paused this goal: do not work toward it until they resume it."
	}
	return s
}

func goalsOf(env *Env, tool string) (GoalControl, *Result) {
	if env.Goals == nil {
		res := errorResult(tool + ": this session has no goal support")
		return nil, &res
	}
	return env.Goals, nil
}
