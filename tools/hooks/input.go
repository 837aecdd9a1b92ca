package hooks

import "encoding/json"

// Input is what a hook is told of the moment it runs for. The fields an event does not have
// stay empty and are left out of the JSON.
type Input struct {
	SessionID      string
	TranscriptPath string // a JSONL export of the session's log (see the executor)
	Cwd            string // the project root the hook runs in
	Event          Event
	PermissionMode string

	Tool    string          // our tool name (PreToolUse, PostToolUse)
	Args    json.RawMessage // our arguments
	CallID  string
	Output  string // PostToolUse: what the model will see
	IsError bool

	Prompt         string // UserPromptSubmit
	Source         string // SessionStart: startup or resume
	Reason         string // SessionEnd: why it ended
	Trigger        string // PreCompact: manual or auto
	Focus          string // PreCompact: what /compact asked to keep
	StopHookActive bool   // Stop, SubagentStop: the answer was already refused by a hook once
	Message        string // Stop, SubagentStop, PostModel: the model's reply text
	Model          string // PreModel, PostModel
}

// wire is the JSON a hook reads on stdin: Claude Code's field names, plus troupe's.
type wire struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path,omitempty"`
	Cwd            string          `json:"cwd"`
	Event          Event           `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode,omitempty"`
	ToolName       string          `json:"tool_name,omitempty"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID      string          `json:"tool_use_id,omitempty"`
	ToolResponse   any             `json:"tool_response,omitempty"`
	Prompt         string          `json:"prompt,omitempty"`
	Source         string          `json:"source,omitempty"`
	Reason         string          `json:"reason,omitempty"`
	Trigger        string          `json:"trigger,omitempty"`
	Custom         *string         `json:"custom_instructions,omitempty"`
	StopHookActive *bool           `json:"stop_hook_active,omitempty"`
	Message        string          `json:"last_assistant_message,omitempty"`
	Model          string          `json:"model,omitempty"`
}

// JSON is the stdin of hook h: a hook from a Claude Code settings file reads Claude Code's
// tool names and inputs (absolute paths), any other ours.
func (in Input) JSON(h Hook) []byte {
	w := wire{SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: in.Cwd, Event: in.Event,
		PermissionMode: in.PermissionMode, ToolName: in.Tool, ToolInput: in.Args, ToolUseID: in.CallID,
		Prompt: in.Prompt, Source: in.Source, Reason: in.Reason, Trigger: in.Trigger,
		Message: in.Message, Model: in.Model}
	if in.Event == PreCompact {
		w.Custom = &in.Focus
	}
	if in.Event == Stop || in.Event == SubagentStop {
		w.StopHookActive = &in.StopHookActive
	}
	if h.Claude && in.Tool != "" {
		w.ToolName, w.ToolInput = ToClaude(in.Tool, in.Args, in.Cwd)
	}
	if in.Event == PostToolUse {
		var args map[string]any
		_ = json.Unmarshal(w.ToolInput, &args)
		if h.Claude {
			w.ToolResponse = claudeResponse(in.Tool, args, in.Output, in.IsError)
		} else {
			w.ToolResponse = map[string]any{"output": in.Output, "is_error": in.IsError}
		}
	}
	data, err := json.Marshal(w)
	if err != nil { // cannot happen: every field marshals
		return []byte("{}")
	}
	return data
}
