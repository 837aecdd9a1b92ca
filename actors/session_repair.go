package actors

import (
	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/llm"
)

// Steering and repair (issue 9): actors/turn decides, turnState (turn_state.go) turns that into
// the turn's steps; the session records the counters.

// repairStatus is the /status line of a session's repairs with model ("" before any call).
func repairStatus(steer *turn.Steering, model string) string {
	if steer == nil {
		return ""
	}
	t := steer.Tally.Total
	t.Model = model
	return turn.RepairLine(t)
}

// withQuirkHint adds the model family's one line of steering to the system prompt, if it has
// one and repair is on.
func withQuirkHint(system, modelName string, repair bool) string {
	if hint := llm.QuirksFor(modelName).PromptHint; repair && hint != "" {
		return system + "\n\n" + hint
	}
	return system
}
