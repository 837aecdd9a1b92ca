package actors

import (
	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/llm"
)

// Steering and repair (issue 9): actors/turn decides, turnState (turn_state.go) turns that into
// the turn's steps; the session records the counters.

// flushRepairs adds the turn's repair counters to the project's per-model counters; like the
// session's meta, one small Badger transaction per turn.
func (s *session) flushRepairs() {
	if s.deps.Store == nil {
		return
	}
	stats, ok := s.cur.repairsToFlush(s.deps.Model)
	if !ok {
		return
	}
	if err := s.deps.Store.AddRepairs(stats); err != nil {
		s.deps.Log.Warn("record repair counters", "session", s.cfg.ID, "err", err)
	}
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
