package loop

import (
	"fmt"
	"path/filepath"
	"strings"
)

// PlanPath is the plan file relative to the project root, where the session's tools resolve
// paths. It must lie inside the project.
func PlanPath(root, plan string) (string, error) {
	plan = strings.TrimSpace(plan)
	if plan == "" {
		return "", fmt.Errorf("--plan is empty: give a file such as PLAN.md")
	}
	if filepath.IsAbs(plan) {
		rel, err := filepath.Rel(root, plan)
		if err != nil {
			return "", fmt.Errorf("--plan %s: %v", plan, err)
		}
		plan = rel
	}
	plan = filepath.ToSlash(filepath.Clean(plan))
	if plan == "." || plan == ".." || strings.HasPrefix(plan, "../") {
		return "", fmt.Errorf("--plan %s is outside the project (%s): the agent can only write inside it", plan, root)
	}
	return plan, nil
}

// Brief is an iteration's task: one step of the plan, the plan file kept up to date, and the
// goal completed only when the whole objective is met and verified.
func Brief(objective, plan string, n, max int) string {
	return fmt.Sprintf(`Loop iteration %d of at most %d. The objective: %s

Every iteration starts with a fresh context: the plan file %s is the only memory between iterations.

1. Read %s. If it does not exist, create it with a first plan: a markdown checklist ("- [ ] step") of small steps toward the objective, each one verifiable, and a "## Notes" section.
2. Take the first unchecked step and do exactly that one step. Verify it (build, run the tests) as far as it can be verified now.
3. Update %s: check the step off ("- [x] step"), and under "## Notes" write what was done, how it was verified, and what comes next. Add or split steps if you learned something.
4. Only if every step is done and the whole objective is met and verified, call update_goal with status "complete" and the evidence (the commands you ran and their outcome, the files you changed). Otherwise leave the goal alone: the next iteration continues from the plan.

End with a short final answer: the step you did and what comes next.`, n, max, objective, plan, plan, plan)
}
