package actors

import (
	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/store"
)

// Steering and repair (issue 9): actors/turn decides, turnState (turn_state.go) turns that into
// the turn's steps; the session records the counters.

// syncTurn makes the turn durable (syncStore) with its repair counters added to the project's
// per-model counters in the same transaction as the meta.
func (s *session) syncTurn() {
	stats, ok := s.cur.repairsToFlush(s.deps.Model)
	if !ok || s.deps.Model == "" { // counters without a model would fail the meta's write
		stats = store.RepairStats{}
	}
	s.syncStoreWith(stats)
}

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
