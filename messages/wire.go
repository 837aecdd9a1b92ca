package messages

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Wire is how an actor message travels on the bus: Kind names its type, Body is its JSON.
// Receivers decode it back to the same pointer struct, so an actor cannot tell whether a message
// came from its own process or from another machine.
type Wire struct {
	Kind string          `json:"kind"`
	Body json.RawMessage `json:"body"`
}

// kinds maps a wire kind to a constructor of its pointer struct. It is read-only after package
// initialisation.
var kinds = map[string]func() any{
	"start_session":     func() any { return &StartSession{} },
	"session_accepted":  func() any { return &SessionAccepted{} },
	"attach_session":    func() any { return &AttachSession{} },
	"user_input":        func() any { return &UserInput{} },
	"input_ack":         func() any { return &InputAck{} },
	"cancel":            func() any { return &Cancel{} },
	"tool_request":      func() any { return &ToolRequest{} },
	"tool_started":      func() any { return &ToolStarted{} },
	"tool_result":       func() any { return &ToolResult{} },
	"list_sessions":     func() any { return &ListSessions{} },
	"session_list":      func() any { return &SessionList{} },
	"get_log":           func() any { return &GetLog{} },
	"get_repair_stats":  func() any { return &GetRepairStats{} },
	"repair_stats":      func() any { return &RepairStatsReply{} },
	"list_lessons":      func() any { return &ListLessons{} },
	"lesson_list":       func() any { return &LessonList{} },
	"forget_lesson":     func() any { return &ForgetLesson{} },
	"lesson_forgotten":  func() any { return &LessonForgotten{} },
	"log_reply":         func() any { return &LogReply{} },
	"status_request":    func() any { return &StatusRequest{} },
	"status_reply":      func() any { return &StatusReply{} },
	"error_reply":       func() any { return &ErrorReply{} },
	"approval_needed":   func() any { return &ApprovalNeeded{} },
	"approve":           func() any { return &Approve{} },
	"approve_ack":       func() any { return &ApproveAck{} },
	"approval_answer":   func() any { return &ApprovalAnswer{} },
	"tool_decision":     func() any { return &ToolDecision{} },
	"set_mode":          func() any { return &SetMode{} },
	"spawn_agent":       func() any { return &SpawnAgent{} },
	"spawn_accepted":    func() any { return &SpawnAccepted{} },
	"wait_agents":       func() any { return &WaitAgents{} },
	"wait_reply":        func() any { return &WaitReply{} },
	"send_agent":        func() any { return &SendAgent{} },
	"cancel_agent":      func() any { return &CancelAgent{} },
	"agent_ack":         func() any { return &AgentAck{} },
	"list_agents":       func() any { return &ListAgents{} },
	"agent_list":        func() any { return &AgentList{} },
	"agent_result":      func() any { return &AgentResult{} },
	"spawn_task":        func() any { return &SpawnTask{} },
	"task_lease":        func() any { return &TaskLease{} },
	"dead_task":         func() any { return &DeadTask{} },
	"get_goal":          func() any { return &GetGoal{} },
	"update_goal":       func() any { return &UpdateGoal{} },
	"goal_reply":        func() any { return &GoalReply{} },
	"payload_ref":       func() any { return &PayloadRef{} },
	"start_loop":        func() any { return &StartLoop{} },
	"loop_accepted":     func() any { return &LoopAccepted{} },
	"recheck_files":     func() any { return &RecheckFiles{} },
	"files_rechecked":   func() any { return &FilesRechecked{} },
	"run_check":         func() any { return &RunCheck{} },
	"check_result":      func() any { return &CheckResult{} },
	"run_hooks":         func() any { return &RunHooks{} },
	"hooks_done":        func() any { return &HooksDone{} },
	"hooks_ran":         func() any { return &HooksRan{} },
	"session_allowlist": func() any { return &SessionAllowlist{} },
	"mcp_call":          func() any { return &MCPCall{} },
	"mcp_call_result":   func() any { return &MCPCallResult{} },
	"mcp_list_tools":    func() any { return &MCPListTools{} },
	"mcp_server_status": func() any { return &MCPServerStatus{} },
	"mcp_watch":         func() any { return &MCPWatch{} },
	"mcp_tools_changed": func() any { return &MCPToolsChanged{} },
	"memory_request":    func() any { return &MemoryRequest{} },
	"memory_reply":      func() any { return &MemoryReply{} },
}

// kindOf maps a pointer type back to its kind.
var kindOf = func() map[reflect.Type]string {
	m := make(map[reflect.Type]string, len(kinds))
	for k, mk := range kinds {
		m[reflect.TypeOf(mk())] = k
	}
	return m
}()

// Encode wraps an actor message for the bus.
func Encode(msg any) ([]byte, error) {
	kind, ok := kindOf[reflect.TypeOf(msg)]
	if !ok {
		return nil, fmt.Errorf("encode %T: not a wire message", msg)
	}
	body, err := json.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", kind, err)
	}
	return json.Marshal(&Wire{Kind: kind, Body: body})
}

// Decode unwraps a bus payload into the pointer struct its kind names.
func Decode(data []byte) (any, error) {
	var w Wire
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("decode wire message: %w", err)
	}
	mk, ok := kinds[w.Kind]
	if !ok {
		return nil, fmt.Errorf("decode wire message: unknown kind %q", w.Kind)
	}
	msg := mk()
	if len(w.Body) > 0 {
		if err := json.Unmarshal(w.Body, msg); err != nil {
			return nil, fmt.Errorf("decode %s: %w", w.Kind, err)
		}
	}
	return msg, nil
}
