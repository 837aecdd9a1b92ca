package messages

// Event pairs an event type with the struct of its payload. A payload is made with Of, and the
// Emitter takes only payloads, so emitting the wrong struct for a type does not compile.
type Event[T any] struct{ Type EventType }

// Payload is one event's data together with its type, paired by Event.Of.
type Payload struct {
	typ  EventType
	data any
}

// Of pairs data with the event's type.
func (e Event[T]) Of(data *T) Payload { return Payload{typ: e.Type, data: data} }

// EventType is the type the payload is emitted as.
func (p Payload) EventType() EventType { return p.typ }

// Data is the payload struct.
func (p Payload) Data() any { return p.data }

func (e Event[T]) newData() any { return new(T) }

func (e Event[T]) eventType() EventType { return e.Type }

// eventKind is what the table of event kinds needs of an Event, whatever its payload.
type eventKind interface {
	eventType() EventType
	newData() any
}

// The typed events, one per event type: the only place an event type meets its payload struct.
var (
	SessionStartedEvent   = Event[SessionStartedData]{EventSessionStarted}
	TurnStartedEvent      = Event[TurnStartedData]{EventTurnStarted}
	TextDeltaEvent        = Event[DeltaData]{EventTextDelta}
	ReasoningDeltaEvent   = Event[DeltaData]{EventReasoningDelta}
	ToolProposedEvent     = Event[ToolCallData]{EventToolProposed}
	ToolRejectedEvent     = Event[DecisionData]{EventToolRejected}
	ToolApprovalEvent     = Event[ApprovalRequestedData]{EventToolApproval}
	ToolDecisionEvent     = Event[DecisionData]{EventToolDecision}
	SessionModeEvent      = Event[ModeData]{EventSessionMode}
	SessionConfigEvent    = Event[ConfigData]{EventSessionConfig}
	ToolStartedEvent      = Event[ToolCallData]{EventToolStarted}
	ToolFinishedEvent     = Event[ToolFinishedData]{EventToolFinished}
	ModelRetryEvent       = Event[ModelRetryData]{EventModelRetry}
	UsageEvent            = Event[UsageData]{EventUsage}
	TurnFinishedEvent     = Event[TurnFinishedData]{EventTurnFinished}
	SessionFinishedEvent  = Event[SessionFinishedData]{EventSessionFinished}
	ErrorEvent            = Event[ErrorData]{EventError}
	FileChangedEvent      = Event[FileChangedData]{EventFileChanged}
	ContextCompactedEvent = Event[ContextCompactedData]{EventContextCompacted}
	ContextPressureEvent  = Event[ContextPressureData]{EventContextPressure}
	GoalUpdatedEvent      = Event[GoalUpdatedData]{EventGoalUpdated}
	DoneCheckEvent        = Event[DoneCheckData]{EventDoneCheck}
	AgentSpawnedEvent     = Event[AgentSpawnedData]{EventAgentSpawned}
	AgentFinishedEvent    = Event[AgentResult]{EventAgentFinished}
	ToolRepairedEvent     = Event[ToolRepairedData]{EventToolRepaired}
	AuditFinishedEvent    = Event[AuditData]{EventAuditFinished}
	WireQuirkEvent        = Event[WireQuirkData]{EventWireQuirk}
	LessonStoredEvent     = Event[LessonStoredData]{EventLessonStored}
	LessonsGivenEvent     = Event[LessonsGivenData]{EventLessonsGiven}
	LoopSteeredEvent      = Event[LoopSteeredData]{EventLoopSteered}
	HookFinishedEvent     = Event[HookFinishedData]{EventHookFinished}
)

// eventKinds lists every typed event; decoding and the golden files are driven by it.
var eventKinds = []eventKind{
	SessionStartedEvent, TurnStartedEvent, TextDeltaEvent, ReasoningDeltaEvent, ToolProposedEvent,
	ToolRejectedEvent, ToolApprovalEvent, ToolDecisionEvent, SessionModeEvent, ToolStartedEvent,
	ToolFinishedEvent, ModelRetryEvent, UsageEvent, TurnFinishedEvent, SessionFinishedEvent,
	ErrorEvent, FileChangedEvent, ContextCompactedEvent, ContextPressureEvent, GoalUpdatedEvent,
	DoneCheckEvent, AgentSpawnedEvent, AgentFinishedEvent, ToolRepairedEvent, AuditFinishedEvent,
	SessionConfigEvent, WireQuirkEvent, HookFinishedEvent, LessonStoredEvent, LessonsGivenEvent, LoopSteeredEvent,
}

// EventTypes lists every event type, in the order of the table.
func EventTypes() []EventType {
	out := make([]EventType, len(eventKinds))
	for i, k := range eventKinds {
		out[i] = k.eventType()
	}
	return out
}

// NewEventData returns a pointer to the payload struct of t, or nil for an unknown type.
func NewEventData(t EventType) any {
	for _, k := range eventKinds {
		if k.eventType() == t {
			return k.newData()
		}
	}
	return nil
}
