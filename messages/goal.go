package messages

import "time"

// Goal statuses (docs/DESIGN-NOTES.md "Goals": users own the goal's lifecycle; the model may only
// complete it, with evidence).
type GoalStatus string

// The goal statuses.
const (
	GoalActive   GoalStatus = "active"
	GoalPaused   GoalStatus = "paused"
	GoalComplete GoalStatus = "complete"
	GoalCleared  GoalStatus = "cleared"
)

// Goal is a session's objective, stored at s/<session>/goal.
type Goal struct {
	Objective string     `json:"objective"`
	Status    GoalStatus `json:"status"`
	Evidence  string     `json:"evidence,omitempty"`
	By        string     `json:"by"` // who set the status: user or model
	Updated   time.Time  `json:"updated"`
}

// GetGoal asks a session for its goal (the get_goal tool); the reply is a GoalReply.
type GetGoal struct{}

// UpdateGoal is the model's one move on the goal (update_goal): Status must be "complete",
// with Evidence. The reply is a GoalReply or an ErrorReply saying why it was refused.
type UpdateGoal struct {
	Status   GoalStatus `json:"status"`
	Evidence string     `json:"evidence"`
}

// GoalReply answers GetGoal and UpdateGoal; Goal is nil when the session has none.
type GoalReply struct {
	Goal *Goal `json:"goal,omitempty"`
}
