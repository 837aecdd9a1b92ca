package messages

// EventType names an event; it is the last part of the event subject.
type EventType string

// Event types. The payload of each is the struct named beside it.
const (
	EventSessionStarted   EventType = "session.started"         // SessionStartedData
	EventTurnStarted      EventType = "turn.started"            // TurnStartedData
	EventTextDelta        EventType = "text.delta"              // DeltaData
	EventReasoningDelta   EventType = "reasoning.delta"         // DeltaData
	EventToolProposed     EventType = "tool.proposed"           // ToolCallData
	EventToolRejected     EventType = "tool.rejected"           // DecisionData
	EventToolApproval     EventType = "tool.approval_requested" // ApprovalRequestedData
	EventToolDecision     EventType = "tool.decision"           // DecisionData
	EventSessionMode      EventType = "session.mode"            // ModeData
	EventSessionConfig    EventType = "session.configured"      // ConfigData: /model or /prompt switched
	EventToolStarted      EventType = "tool.started"            // ToolCallData
	EventToolFinished     EventType = "tool.finished"           // ToolFinishedData
	EventModelRetry       EventType = "model.retry"             // ModelRetryData
	EventUsage            EventType = "usage"                   // UsageData
	EventTurnFinished     EventType = "turn.finished"           // TurnFinishedData
	EventSessionFinished  EventType = "session.finished"        // SessionFinishedData
	EventError            EventType = "error"                   // ErrorData
	EventFileChanged      EventType = "file.changed_externally" // FileChangedData
	EventContextCompacted EventType = "context.compacted"       // ContextCompactedData
	EventContextPressure  EventType = "context.pressure"        // ContextPressureData
	EventGoalUpdated      EventType = "goal.updated"            // GoalUpdatedData
	EventDoneCheck        EventType = "done.check"              // DoneCheckData
	EventAgentSpawned     EventType = "agent.spawned"           // AgentSpawnedData (emitted by the parent)
	EventAgentFinished    EventType = "agent.finished"          // AgentResult (emitted by the parent)
	EventToolRepaired     EventType = "tool.repaired"           // ToolRepairedData
	EventAuditFinished    EventType = "audit.finished"          // AuditData
	EventWireQuirk        EventType = "wire.quirk"              // WireQuirkData
	EventLessonStored     EventType = "lesson.stored"           // LessonStoredData
	EventLessonsGiven     EventType = "lessons.given"           // LessonsGivenData
	EventLoopSteered      EventType = "loop.steered"            // LoopSteeredData
	EventHookFinished     EventType = "hook.finished"           // HookFinishedData
)

// SessionStartedData opens a session's stream of events.
type SessionStartedData struct {
	Model     string `json:"model"`
	Mode      Mode   `json:"mode"`
	Workspace string `json:"workspace"`
	Task      string `json:"task,omitempty"`
	Resumed   bool   `json:"resumed,omitempty"`
	Role      string `json:"role,omitempty"` // a subagent's role
	Sandbox   string `json:"sandbox,omitempty"`
	// PromptBytes is the size of the stable prefix: system prompt plus tool schemas.
	PromptBytes int `json:"prompt_bytes"`
}

// TurnStartedData marks the start of one model call and what follows from it.
type TurnStartedData struct {
	Turn int `json:"turn"`
}

// DeltaData is a piece of streamed text or reasoning.
type DeltaData struct {
	Turn int    `json:"turn"`
	Text string `json:"text"`
}

// ToolCallData is a tool call as proposed by the model or as started by the executor.
type ToolCallData struct {
	Turn   int    `json:"turn"`
	CallID string `json:"call_id"`
	// Tool and Args are what runs: the tool the call resolved to and its repaired arguments.
	Tool string `json:"tool"`
	Args string `json:"args"`
	// Summary is a one-line human description ("read_file README.md").
	Summary string `json:"summary,omitempty"`
	// RequestedTool and RequestedArgs are the model's own name and arguments, set when repair
	// changed either (Goose's developer__shell ran as bash).
	RequestedTool string `json:"requested_tool,omitempty"`
	RequestedArgs string `json:"requested_args,omitempty"`
}

// ToolFinishedData is the outcome of a tool call: a result, or a rejection before execution.
type ToolFinishedData struct {
	Turn   int    `json:"turn"`
	CallID string `json:"call_id"`
	Tool   string `json:"tool"` // the tool that ran (as in ToolCallData)
	// RequestedTool is the model's own name for it when repair changed it. The arguments,
	// repaired and requested, are on the call's tool.proposed and tool.started: a result does
	// not carry a third copy of a large write.
	RequestedTool string   `json:"requested_tool,omitempty"`
	IsError       bool     `json:"is_error,omitempty"`
	Output        string   `json:"output"` // bounded preview of what the model sees
	Bytes         int      `json:"bytes"`  // size of the full result
	Changed       []string `json:"changed,omitempty"`
	DurationMS    int64    `json:"duration_ms"`
	Reason        string   `json:"reason,omitempty"` // for tool.rejected
}

// ModelRetryData says a model call failed and will be tried again; text streamed by the failed
// attempt is superseded.
type ModelRetryData struct {
	Turn    int    `json:"turn"`
	Attempt int    `json:"attempt"`
	DelayMS int64  `json:"delay_ms"`
	Status  int    `json:"status,omitempty"`
	Reason  string `json:"reason"`
}

// UsageData is the token usage of one model call, and the session's totals.
type UsageData struct {
	Turn              int `json:"turn"`
	InputTokens       int `json:"input_tokens"`
	OutputTokens      int `json:"output_tokens"`
	CacheReadTokens   int `json:"cache_read_tokens,omitempty"`
	TotalInputTokens  int `json:"total_input_tokens"`
	TotalOutputTokens int `json:"total_output_tokens"`
	RequestBytes      int `json:"request_bytes"`
}

// TurnFinishedData closes a turn.
type TurnFinishedData struct {
	Turn int        `json:"turn"`
	Stop StopReason `json:"stop"`
	// Class is what the reply was (see ReplyClass); it drives what the session does next.
	Class ReplyClass `json:"class,omitempty"`
}

// StopReason is why a turn ended, as TurnFinishedData.Stop.
type StopReason string

// Stop reasons.
const (
	StopEnd       StopReason = "end"        // a final answer
	StopToolCalls StopReason = "tool_calls" // the turn's tool calls ran; the next turn follows
	StopLength    StopReason = "length"     // cut off by the output limit
	StopRefusal   StopReason = "refusal"    // the model refused
	StopEmpty     StopReason = "empty"      // the model replied with nothing
	StopError     StopReason = "error"      // the model call failed
	StopCancelled StopReason = "cancelled"  // cancelled by a client or the parent
)

// ReplyClass is the class of one model reply (docs/ARCHITECTURE.md "How a turn flows", step 3).
type ReplyClass string

// The reply classes.
const (
	ReplyFinal         ReplyClass = "final"          // a final answer
	ReplyToolCalls     ReplyClass = "tool_calls"     // structured tool calls
	ReplyTextCalls     ReplyClass = "text_calls"     // tool calls written as text, recovered
	ReplyMalformed     ReplyClass = "malformed"      // an attempted call that could not be recovered
	ReplyEmpty         ReplyClass = "empty"          // nothing at all
	ReplyLength        ReplyClass = "length"         // cut off by the output limit
	ReplyReasoningOnly ReplyClass = "reasoning_only" // reasoning with no answer and no call
	ReplyRefusal       ReplyClass = "refusal"        // the model refused
	ReplyQuestion      ReplyClass = "question"       // a question to the user
)

// ToolRepairedData records one repair the harness made to a model's tool call.
type ToolRepairedData struct {
	Turn   int    `json:"turn"`
	CallID string `json:"call_id,omitempty"`
	Tool   string `json:"tool,omitempty"`
	Kind   string `json:"kind"` // a tools.RepairKind
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// WireQuirkData names one leniency the provider wire needed to read a reply: the server bent
// its protocol (arguments as an object, no finish reason, a field it refuses, …) and the reply
// was read anyway. Quirk is an llm/openai quirk name; counted per model in troupe stats.
type WireQuirkData struct {
	Turn  int    `json:"turn"`
	Quirk string `json:"quirk"`
}

// SessionStatus is a session's state: running, or its outcome (SessionFinishedData.Status).
type SessionStatus string

// Session states: running until it finishes, then one of the outcomes.
const (
	StatusRunning     SessionStatus = "running"
	StatusDone        SessionStatus = "done"
	StatusFailed      SessionStatus = "failed"
	StatusInterrupted SessionStatus = "interrupted"
)

// FailKind says what a caller should do about a failed session, as SessionFinishedData.Kind.
type FailKind string

// Failure kinds.
const (
	FailConfig   FailKind = "config"   // fix the setup (key, model, base URL) and run again: exit 2
	FailInternal FailKind = "internal" // troupe itself failed (its store, bus or tool executor): exit 1, not the user's setup
	FailProvider FailKind = "provider" // the provider kept failing
	FailBudget   FailKind = "budget"   // turn or token budget exhausted
	FailModel    FailKind = "model"    // the model refused or kept replying badly
	FailDone     FailKind = "done"     // the definition of done was not met (goal evidence, check command)
	FailLoop     FailKind = "loop"     // the model kept repeating itself after being steered
	FailEvents   FailKind = "events"   // an event could not be published (the session stops rather than leave a gap)
)

// SessionFinishedData closes a session's stream (for this run: a resumed session starts again).
type SessionFinishedData struct {
	Status SessionStatus `json:"status"`
	Kind   FailKind      `json:"kind,omitempty"`
	Final  string        `json:"final,omitempty"` // the final answer
	Error  string        `json:"error,omitempty"`
	Turns  int           `json:"turns"`
	// Goal is the goal's status when the session ended, if it has one (troupe loop reads it).
	Goal GoalStatus `json:"goal,omitempty"`
}

// ErrorData reports a problem the session survived or died of.
type ErrorData struct {
	Message string `json:"message"`
	Fatal   bool   `json:"fatal,omitempty"`
}

// FileChangedData reports a tracked file changed or deleted outside the session, found by the
// re-check before a model call.
type FileChangedData struct {
	Turn int            `json:"turn"`
	Path string         `json:"path"`
	Kind FileChangeKind `json:"kind"`
	Diff string         `json:"diff,omitempty"` // bounded
}

// PressureLevel is how full the model's window is, as ContextPressureData.Level.
type PressureLevel string

// Context pressure levels.
const (
	PressureWarning PressureLevel = "warning" // past the warning threshold: compaction is near
	PressureCompact PressureLevel = "compact" // past the watermark: the compactor runs before the next call
	PressureBlock   PressureLevel = "block"   // the next call would overflow the window: it waits for compaction
)

// ContextPressureData says how full the model's window is before a call.
type ContextPressureData struct {
	Turn    int           `json:"turn"`
	Tokens  int           `json:"tokens"` // provider-reported input of the last call plus the estimated tail
	Window  int           `json:"window"`
	Percent float64       `json:"percent"`
	Level   PressureLevel `json:"level"`
}

// ContextCompactedData reports a compaction: which span of the log a boundary now replaces.
type ContextCompactedData struct {
	Turn         int    `json:"turn"`
	Reason       string `json:"reason"` // auto, manual, overflow, idle
	FromSeq      uint64 `json:"from_seq"`
	ToSeq        uint64 `json:"to_seq"`
	TokensBefore int    `json:"tokens_before"`
	TokensAfter  int    `json:"tokens_after"`
	Mechanical   bool   `json:"mechanical,omitempty"` // the model's summary was unusable: a mechanical one stands in
	Summary      string `json:"summary"`              // bounded preview
	Error        string `json:"error,omitempty"`      // why the model's summary was not used
}

// GoalUpdatedData reports a change of the session's goal.
type GoalUpdatedData struct {
	Objective string     `json:"objective"`
	Status    GoalStatus `json:"status"` // active, paused, complete, cleared
	Evidence  string     `json:"evidence,omitempty"`
	By        string     `json:"by"` // user or model
}

// DoneCheckData reports a definition-of-done check before a final answer is accepted.
type DoneCheckData struct {
	Turn     int           `json:"turn"`
	Kind     DoneCheckKind `json:"kind"`
	Command  string        `json:"command,omitempty"`
	Passed   bool          `json:"passed"`
	Output   string        `json:"output,omitempty"` // bounded
	Refusals int           `json:"refusals"`         // final answers refused so far
	Max      int           `json:"max"`
}

// DoneCheckKind is what a definition-of-done check looked at.
type DoneCheckKind string

// The kinds of done check.
const (
	DoneCheckGoal    DoneCheckKind = "goal"    // the goal must be completed with evidence
	DoneCheckCommand DoneCheckKind = "command" // the configured check command must pass
)
