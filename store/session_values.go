package store

// The named values a session keeps beside its log (s/<session>/<name>), with their names
// spelled only here: callers use these accessors, never a key.
const (
	goalName          = "goal"
	fileRecordPrefix  = "fs/"     // + the workspace-relative path
	agentRecordPrefix = "agents/" // + the subagent's task name
	instructionPrefix = "instr/"  // + the directory a delivered instruction file applies to
)

// PutGoal stores the session's goal.
func (s *Store) PutGoal(session string, goal any) error { return s.PutValue(session, goalName, goal) }

// Goal loads the session's goal into goal; the error wraps ErrNotFound when it has none.
func (s *Store) Goal(session string, goal any) error { return s.Value(session, goalName, goal) }

// PutFileRecord stores the file-truth record of one workspace path.
func (s *Store) PutFileRecord(session, path string, rec any) error {
	return s.PutValue(session, fileRecordPrefix+path, rec)
}

// EachFileRecord calls fn with every file-truth record of the session, in path order.
func (s *Store) EachFileRecord(session string, fn func(raw []byte) error) error {
	return s.EachValue(session, fileRecordPrefix, func(_ string, raw []byte) error { return fn(raw) })
}

// PutAgentRecord stores the record of one subagent of the session, by its task name.
func (s *Store) PutAgentRecord(session, task string, rec any) error {
	return s.PutValue(session, agentRecordPrefix+task, rec)
}

// EachAgentRecord calls fn with every subagent record of the session, in task-name order.
func (s *Store) EachAgentRecord(session string, fn func(raw []byte) error) error {
	return s.EachValue(session, agentRecordPrefix, func(_ string, raw []byte) error { return fn(raw) })
}

// PutInstructionDelivery stores the record of a nested instruction file handed to the model,
// by the directory it applies to.
func (s *Store) PutInstructionDelivery(session, dir string, rec any) error {
	return s.PutValue(session, instructionPrefix+dir, rec)
}

// EachInstructionDelivery calls fn with every delivered instruction record, in directory order.
func (s *Store) EachInstructionDelivery(session string, fn func(raw []byte) error) error {
	return s.EachValue(session, instructionPrefix, func(_ string, raw []byte) error { return fn(raw) })
}
