package messages

import "time"

// LessonTrigger is the kind of failure a lesson was learnt from (docs/ARCHITECTURE.md, "The
// learning layer").
type LessonTrigger string

// The lesson triggers.
const (
	LessonCommandFailed LessonTrigger = "command_failed" // a command failed, then passed after a change
	LessonCheckFailed   LessonTrigger = "check_failed"   // the done-check failed, then passed after an edit
	LessonToolError     LessonTrigger = "tool_error"     // a tool call failed, then a call of the same tool worked
	LessonRepaired      LessonTrigger = "repaired"       // the harness repaired the model's call
	LessonLoop          LessonTrigger = "loop"           // a loop the steering broke, and the call that broke it
)

// Lesson is one piece of hard-won knowledge of a project: what failed in a session and what
// fixed it, with how often handing it out helped.
type Lesson struct {
	ID      string        `json:"id"`
	Trigger LessonTrigger `json:"trigger"`
	// Key is the failure's signature (trigger, tool or command, normalized error line): the same
	// trap met again has the same key, which is how a recurrence is told.
	Key     string    `json:"key"`
	Failed  string    `json:"failed"` // what failed, with its error
	Fixed   string    `json:"fixed"`  // what fixed it
	Files   []string  `json:"files,omitempty"`
	Task    string    `json:"task,omitempty"` // the task it was learnt on: a new task like it may meet the trap
	Model   string    `json:"model,omitempty"`
	Session string    `json:"session,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Seen counts the sessions that learnt it (a relearnt lesson keeps its id and its score).
	Seen int `json:"seen"`
	// Given counts the sessions it was handed to; Helped those where its trigger did not come
	// back, Recurred those where it did anyway.
	Given    int `json:"given"`
	Helped   int `json:"helped"`
	Recurred int `json:"recurred"`
	// LastEpoch is the project's session count when it was last learnt or given: how long it
	// has gone unused is measured in sessions, not hours.
	LastEpoch int `json:"last_epoch"`
}

// LessonStoredData reports a lesson written to the project's store.
type LessonStoredData struct {
	Turn    int           `json:"turn"`
	ID      string        `json:"id"`
	Trigger LessonTrigger `json:"trigger"`
	Failed  string        `json:"failed"`
	Fixed   string        `json:"fixed"`
	Files   []string      `json:"files,omitempty"`
	// Relearnt is set when the lesson was already known (it keeps its id and score).
	Relearnt bool `json:"relearnt,omitempty"`
}

// LessonsGivenData reports the lessons put into the request's state block, and why.
type LessonsGivenData struct {
	Turn  int      `json:"turn"`
	IDs   []string `json:"ids"`
	Cause string   `json:"cause"` // "task" or "failure"
	Bytes int      `json:"bytes"` // the size of the block
}

// LoopSteeredData reports a loop the steering told the model about (actors/turn).
type LoopSteeredData struct {
	Turn     int      `json:"turn"`
	Kind     string   `json:"kind"` // a turn.LoopKind
	Level    int      `json:"level"`
	Evidence []string `json:"evidence,omitempty"`
}

// ListLessons asks a Node for the project's lessons.
type ListLessons struct{}

// LessonList answers ListLessons: the lessons, best first, and one line per record that could
// not be read (skipped; the others are intact).
type LessonList struct {
	Lessons []Lesson `json:"lessons"`
	Skipped []string `json:"skipped,omitempty"`
}

// ForgetLesson asks a Node to delete one lesson by id (or a unique prefix of it).
type ForgetLesson struct {
	ID string `json:"id"`
}

// LessonForgotten answers ForgetLesson with the id deleted.
type LessonForgotten struct {
	ID string `json:"id"`
}
