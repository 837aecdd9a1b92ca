package messages

import (
	"encoding/json"
	"strconv"
	"time"
)

// Encoding an event is on the path of every event a session emits (bench/startup.sh's turn
// overhead, BenchmarkEventThroughput): the envelope is written by hand, byte for byte what
// json.Marshal writes (TestEnvelopeEncodingMatchesMarshal), and the payloads of the most
// frequent events, the deltas and those of every turn, likewise (payload_encode.go).

// appendEnvelope appends env as json.Marshal would write it. env.Data must be compact JSON with
// HTML characters escaped, as json.Marshal returns it.
func appendEnvelope(b []byte, env *Envelope) ([]byte, error) {
	b, err := appendEnvelopeHead(b, env)
	if err != nil {
		return nil, err
	}
	if len(env.Data) > 0 {
		b = append(b, `,"data":`...)
		b = append(b, env.Data...)
	}
	return appendEnvelopeTail(b, env), nil
}

// appendEnvelopeHead appends env's fields before data, from the opening brace.
func appendEnvelopeHead(b []byte, env *Envelope) ([]byte, error) {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(env.V), 10)
	b = append(b, `,"seq":`...)
	b = strconv.AppendUint(b, env.Seq, 10)
	b = append(b, `,"ts":`...)
	ts, err := appendTime(b, env.TS)
	if err != nil {
		return nil, err
	}
	b = append(ts, `,"ns":`...)
	b = appendString(b, env.NS)
	b = append(b, `,"session":`...)
	b = appendString(b, env.Session)
	if env.Agent != "" {
		b = append(b, `,"agent":`...)
		b = appendString(b, env.Agent)
	}
	if env.Parent != "" {
		b = append(b, `,"parent":`...)
		b = appendString(b, env.Parent)
	}
	b = append(b, `,"type":`...)
	return appendString(b, string(env.Type)), nil
}

// appendEnvelopeTail appends env's fields after data, through the closing brace.
func appendEnvelopeTail(b []byte, env *Envelope) []byte {
	if env.DataRef != "" {
		b = append(b, `,"data_ref":`...)
		b = appendString(b, env.DataRef)
	}
	if env.DataBytes != 0 {
		b = append(b, `,"data_bytes":`...)
		b = strconv.AppendInt(b, int64(env.DataBytes), 10)
	}
	if env.DataObject != nil {
		raw, _ := json.Marshal(env.DataObject) // plain strings and a number always marshal
		b = append(b, `,"data_object":`...)
		b = append(b, raw...)
	}
	return append(b, '}')
}

// appendTime writes t as time.Time's MarshalJSON does, and fails where it fails.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		raw, err := t.MarshalJSON()
		return append(b, raw...), err
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

// appendString writes s as a JSON string the way json.Marshal does. Plain printable ASCII is
// copied; anything json.Marshal escapes (quotes, backslashes, control characters, <, >, &,
// non-ASCII) goes through json.Marshal itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			raw, _ := json.Marshal(s) // a string always marshals
			return append(b, raw...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendDelta writes a text or reasoning delta as json.Marshal would.
func appendDelta(b []byte, d *DeltaData) []byte {
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(d.Turn), 10)
	b = append(b, `,"text":`...)
	b = appendString(b, d.Text)
	return append(b, '}')
}
