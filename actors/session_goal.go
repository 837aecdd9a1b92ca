package actors

import (
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// Goals (docs/ARCHITECTURE.md, "The definition of done"): the user sets, pauses, resumes and
// clears the objective (/goal, the control subject, troupe run --goal); the model reads it and
// may only complete it, with evidence. doneGate decides each change (done.go); the session
// records it in the store with its events, shows it in a state block each turn, and it
// survives resume.

// Goal is a session's objective.
type Goal = messages.Goal

// loadGoal reads the stored goal, if any, then records the start's --goal unless it is the
// stored one already.
func (s *session) loadGoal() error {
	var g Goal
	err := s.deps.Store.Goal(s.cfg.ID, &g)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return fmt.Errorf("load goal: %w", err)
	default:
		s.done.goal = &g
	}
	if next := s.done.startGoal(s.cfg.Goal); next != nil {
		return s.setGoal(*next)
	}
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

// onUpdateGoal is update_goal from the model: completion only, with evidence, of an active goal.
func (s *session) onUpdateGoal(ctx actor.Context, req *messages.UpdateGoal) {
	next, reply := s.done.modelGoal(req)
	if next != nil {
		if err := s.setGoal(*next); err != nil {
			reply = &messages.ErrorReply{Error: err.Error()}
		} else {
			reply = &messages.GoalReply{Goal: s.done.goal}
		}
	}
	s.respond(ctx, reply)
}
