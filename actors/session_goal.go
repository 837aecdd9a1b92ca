package actors

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// Goals (DESIGN §5, §6): the user sets, pauses, resumes and clears the objective (/goal, the
// control subject, troupe run --goal); the model reads it and may only complete it, with
// evidence. The goal lives in the store with its events, shows in a state block each turn,
// and survives resume.

// Goal is a session's objective.
type Goal = messages.Goal

// minEvidence is the shortest evidence accepted: "done" is a claim, not evidence.
const minEvidence = 10

// loadGoal reads the stored goal, if any.
func (s *session) loadGoal() error {
	var g Goal
	err := s.deps.Store.Goal(s.cfg.ID, &g)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return fmt.Errorf("load goal: %w", err)
	}
	s.done.goal = &g
	return nil
}

// setGoal records a goal change and announces it.
func (s *session) setGoal(g Goal) error {
	g.Updated = time.Now().UTC()
	if err := s.deps.Store.PutGoal(s.cfg.ID, &g); err != nil {
		return fmt.Errorf("record goal: %w", err)
	}
	s.done.goal = &g
	s.emit(messages.GoalUpdatedEvent.Of(&messages.GoalUpdatedData{Objective: g.Objective, Status: g.Status, Evidence: g.Evidence, By: g.By}))
	s.audit(messages.EventGoalUpdated, "", "", &g)
	return nil
}

// goalCommand is /goal [objective|pause|resume|clear|complete]: the user's side of the goal.
func (s *session) goalCommand(arg string) string {
	g := s.done.goal
	word := strings.ToLower(strings.TrimSpace(arg))
	has := g != nil && g.Status != messages.GoalCleared
	next := Goal{By: "user"}
	if has {
		next = *g
		next.By = "user"
	}
	switch {
	case word == "":
		return tools.FormatGoal(g)
	case word == "pause" || word == "resume" || word == "clear" || word == "complete":
		if !has {
			return "no goal is set: /goal <objective> sets one"
		}
		next.Status = map[string]messages.GoalStatus{"pause": messages.GoalPaused, "resume": messages.GoalActive,
			"clear": messages.GoalCleared, "complete": messages.GoalComplete}[word]
		if word == "complete" {
			next.Evidence = "completed by the user"
		}
	default:
		next = Goal{Objective: strings.TrimSpace(arg), Status: messages.GoalActive, By: "user"}
		s.done.refusals = 0
	}
	if err := s.setGoal(next); err != nil {
		return err.Error()
	}
	return "goal " + string(next.Status) + ": " + next.Objective
}

// onUpdateGoal is update_goal from the model: completion only, with evidence, of an active goal.
func (s *session) onUpdateGoal(ctx actor.Context, req *messages.UpdateGoal) {
	refuse := func(why string) { s.respond(ctx, &messages.ErrorReply{Error: why}) }
	g := s.done.goal
	switch {
	case g == nil || g.Status == messages.GoalCleared:
		refuse("no goal is set; only the user sets goals")
	case req.Status != messages.GoalComplete:
		refuse(fmt.Sprintf("status %q: the model may only set status \"complete\"; the user owns the rest", req.Status))
	case g.Status == messages.GoalPaused:
		refuse("the user paused this goal; it cannot be completed until they resume it")
	case g.Status == messages.GoalComplete:
		s.respond(ctx, &messages.GoalReply{Goal: g})
	case len(strings.TrimSpace(req.Evidence)) < minEvidence:
		refuse("evidence is required: name the commands you ran and their outcome, and the files you changed")
	default:
		next := *g
		next.Status, next.Evidence, next.By = messages.GoalComplete, strings.TrimSpace(req.Evidence), "model"
		if err := s.setGoal(next); err != nil {
			refuse(err.Error())
			return
		}
		s.respond(ctx, &messages.GoalReply{Goal: s.done.goal})
	}
}

// stateBlocks is the app state shown to the model after the conversation each turn (DESIGN
// §6): the goal, the files this session changed, the subagents still running. They are built
// from state, never from old transcript text, so a compaction cannot lose them.
func (s *session) stateBlocks() []projection.StateBlock {
	var blocks []projection.StateBlock
	if s.done.goal != nil && s.done.goal.Status != messages.GoalCleared {
		blocks = append(blocks, projection.StateBlock{Title: "Goal", Body: tools.FormatGoal(s.done.goal)})
	}
	if len(s.asChild.trail.changed) > 0 {
		blocks = append(blocks, projection.StateBlock{Title: "Files changed in this session", Body: strings.Join(s.asChild.trail.changed, "\n")})
	}
	var running []string
	for _, c := range s.kids.unended() {
		running = append(running, fmt.Sprintf("%s (%s): %s", c.rec.Handle, c.rec.Role, c.rec.State))
	}
	if len(running) > 0 {
		blocks = append(blocks, projection.StateBlock{Title: "Subagents running", Body: strings.Join(running, "\n")})
	}
	return blocks
}
