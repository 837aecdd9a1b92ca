package messages

import (
	"encoding/json"
	"strconv"

	"github.com/troupe-dev/troupe/internal/jsonappend"
)

// The payloads every turn emits (turn.started, usage, tool.proposed, tool.decision,
// tool.started, tool.finished, turn.finished) are written by hand like the deltas, byte for
// byte what json.Marshal writes (TestPayloadEncodingMatchesMarshal fills every field, so a
// field added to one of these structs and not here fails it): reflection was most of the
// cost of emitting them, on the session's actor at every turn (BenchmarkTurnOverhead).

// appendPayload appends data as json.Marshal would write it, for the payloads above; ok is
// false for any other (the caller marshals it).
func appendPayload(b []byte, data any) (_ []byte, ok bool) {
	switch d := data.(type) {
	case *DeltaData:
		if d != nil {
			return appendDelta(b, d), true
		}
	case *TurnStartedData:
		if d != nil {
			b = append(b, `{"turn":`...)
			return append(strconv.AppendInt(b, int64(d.Turn), 10), '}'), true
		}
	case *UsageData:
		if d != nil {
			return appendUsage(b, d), true
		}
	case *TurnFinishedData:
		if d != nil {
			return appendTurnFinished(b, d), true
		}
	case *ToolCallData:
		if d != nil {
			return appendToolCall(b, d), true
		}
	case *DecisionData:
		if d != nil {
			return appendDecision(b, d), true
		}
	case *ToolFinishedData:
		if d != nil {
			return appendToolFinished(b, d), true
		}
	}
	return b, false
}

// MarshalPayload is json.Marshal(data), written by hand for the payloads above (a session's
// audit entry of a decision carries one at every call).
func MarshalPayload(data any) ([]byte, error) {
	if b, ok := appendPayload(make([]byte, 0, payloadHint(data)), data); ok {
		return b, nil
	}
	return json.Marshal(data)
}

// writtenByHand says appendPayload writes data.
func writtenByHand(data any) bool {
	switch d := data.(type) {
	case *DeltaData:
		return d != nil
	case *TurnStartedData:
		return d != nil
	case *UsageData:
		return d != nil
	case *TurnFinishedData:
		return d != nil
	case *ToolCallData:
		return d != nil
	case *DecisionData:
		return d != nil
	case *ToolFinishedData:
		return d != nil
	}
	return false
}

// payloadHint is about how many bytes appendPayload writes for data: the sizes of its
// strings that may be long, plus room for the rest.
func payloadHint(data any) int {
	switch d := data.(type) {
	case *DeltaData:
		if d != nil {
			return len(d.Text) + 32
		}
	case *ToolCallData:
		if d != nil {
			return len(d.Args) + len(d.RequestedArgs) + len(d.Summary) + 128
		}
	case *ToolFinishedData:
		if d != nil {
			return len(d.Output) + len(d.Reason) + 160
		}
	case *DecisionData:
		if d != nil {
			return len(d.Reason) + 128
		}
	}
	return 160
}

func appendIntField(b []byte, name string, n int64) []byte {
	b = append(b, name...)
	return strconv.AppendInt(b, n, 10)
}

func appendStringField(b []byte, name, s string) []byte {
	return jsonappend.String(append(b, name...), s)
}

func appendUsage(b []byte, d *UsageData) []byte {
	b = appendIntField(b, `{"turn":`, int64(d.Turn))
	b = appendIntField(b, `,"input_tokens":`, int64(d.InputTokens))
	b = appendIntField(b, `,"output_tokens":`, int64(d.OutputTokens))
	if d.CacheReadTokens != 0 {
		b = appendIntField(b, `,"cache_read_tokens":`, int64(d.CacheReadTokens))
	}
	b = appendIntField(b, `,"total_input_tokens":`, int64(d.TotalInputTokens))
	b = appendIntField(b, `,"total_output_tokens":`, int64(d.TotalOutputTokens))
	b = appendIntField(b, `,"request_bytes":`, int64(d.RequestBytes))
	return append(b, '}')
}

func appendTurnFinished(b []byte, d *TurnFinishedData) []byte {
	b = appendIntField(b, `{"turn":`, int64(d.Turn))
	b = appendStringField(b, `,"stop":`, string(d.Stop))
	if d.Class != "" {
		b = appendStringField(b, `,"class":`, string(d.Class))
	}
	return append(b, '}')
}

func appendToolCall(b []byte, d *ToolCallData) []byte {
	b = appendIntField(b, `{"turn":`, int64(d.Turn))
	b = appendStringField(b, `,"call_id":`, d.CallID)
	b = appendStringField(b, `,"tool":`, d.Tool)
	b = appendStringField(b, `,"args":`, d.Args)
	if d.Summary != "" {
		b = appendStringField(b, `,"summary":`, d.Summary)
	}
	if d.RequestedTool != "" {
		b = appendStringField(b, `,"requested_tool":`, d.RequestedTool)
	}
	if d.RequestedArgs != "" {
		b = appendStringField(b, `,"requested_args":`, d.RequestedArgs)
	}
	return append(b, '}')
}

func appendDecision(b []byte, d *DecisionData) []byte {
	b = appendIntField(b, `{"turn":`, int64(d.Turn))
	b = appendStringField(b, `,"call_id":`, d.CallID)
	b = appendStringField(b, `,"tool":`, d.Tool)
	b = appendStringField(b, `,"decision":`, string(d.Decision))
	b = appendStringField(b, `,"reason":`, d.Reason)
	if d.By != "" {
		b = appendStringField(b, `,"by":`, d.By)
	}
	return append(b, '}')
}

func appendToolFinished(b []byte, d *ToolFinishedData) []byte {
	b = appendIntField(b, `{"turn":`, int64(d.Turn))
	b = appendStringField(b, `,"call_id":`, d.CallID)
	b = appendStringField(b, `,"tool":`, d.Tool)
	if d.RequestedTool != "" {
		b = appendStringField(b, `,"requested_tool":`, d.RequestedTool)
	}
	if d.IsError {
		b = append(b, `,"is_error":true`...)
	}
	b = appendStringField(b, `,"output":`, d.Output)
	b = appendIntField(b, `,"bytes":`, int64(d.Bytes))
	if len(d.Changed) > 0 {
		b = jsonappend.Strings(append(b, `,"changed":`...), d.Changed)
	}
	b = appendIntField(b, `,"duration_ms":`, d.DurationMS)
	if d.Reason != "" {
		b = appendStringField(b, `,"reason":`, d.Reason)
	}
	return append(b, '}')
}
