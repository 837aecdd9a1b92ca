package messages

// Hooks are user commands run at points of the loop (tools/hooks decides, the executor runs
// them, the session routes the outcome; docs/CONFIG.md "[[hooks.EVENT]]").

// HookFinishedData is the payload of hook.finished: one hook's run and what it decided.
type HookFinishedData struct {
	Turn     int    `json:"turn,omitempty"`
	Event    string `json:"event"`
	Command  string `json:"command"`
	Source   string `json:"source,omitempty"` // the file the hook came from
	Tool     string `json:"tool,omitempty"`   // PreToolUse, PostToolUse: our tool name
	CallID   string `json:"call_id,omitempty"`
	Exit     int    `json:"exit"` // -1 when it did not exit by itself (not found, timed out)
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"` // what it told the model or the user
	Notice   string `json:"notice,omitempty"` // what the user is shown: an error, its systemMessage
	Ms       int64  `json:"ms"`
}

// RunHooks asks the executor to run the hooks of a moment of the session that is not a tool
// call (a prompt, the final answer, a model call, a compaction, the start and the end); the
// answer is HooksDone. The fields an event does not have stay empty.
type RunHooks struct {
	Turn           int    `json:"turn"`
	Event          string `json:"event"`
	PermissionMode string `json:"permission_mode,omitempty"`
	Prompt         string `json:"prompt,omitempty"`
	Source         string `json:"source,omitempty"`
	Reason         string `json:"reason,omitempty"`
	Trigger        string `json:"trigger,omitempty"`
	Focus          string `json:"focus,omitempty"`
	Message        string `json:"message,omitempty"`
	Model          string `json:"model,omitempty"`
	StopHookActive bool   `json:"stop_hook_active,omitempty"`
}

// HooksDone is what the hooks of a RunHooks decided together: Block refuses the prompt or the
// final answer with Reason, Context is text for the model, Stop ends the turn with
// StopReason, Notices are lines for the user; Runs are the hook.finished events to emit.
type HooksDone struct {
	Turn       int                `json:"turn"`
	Event      string             `json:"event"`
	Block      bool               `json:"block,omitempty"`
	Reason     string             `json:"reason,omitempty"`
	Context    []string           `json:"context,omitempty"`
	Stop       bool               `json:"stop,omitempty"`
	StopReason string             `json:"stop_reason,omitempty"`
	Notices    []string           `json:"notices,omitempty"`
	Runs       []HookFinishedData `json:"runs,omitempty"`
}

// HooksRan tells the session of the hooks run around a tool call, before its result, so it
// emits their hook.finished events.
type HooksRan struct {
	Runs []HookFinishedData `json:"runs"`
}
