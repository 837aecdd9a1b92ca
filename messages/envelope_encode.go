package messages

import (
	"encoding/json"
	"strconv"

	"github.com/troupe-dev/troupe/internal/jsonappend"
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
	ts, err := jsonappend.Time(b, env.TS)
	if err != nil {
		return nil, err
	}
	b = append(ts, `,"ns":`...)
	b = jsonappend.String(b, env.NS)
	b = append(b, `,"session":`...)
	b = jsonappend.String(b, env.Session)
	if env.Agent != "" {
		b = append(b, `,"agent":`...)
		b = jsonappend.String(b, env.Agent)
	}
	if env.Parent != "" {
		b = append(b, `,"parent":`...)
		b = jsonappend.String(b, env.Parent)
	}
	b = append(b, `,"type":`...)
	return jsonappend.String(b, string(env.Type)), nil
}

// appendEnvelopeTail appends env's fields after data, through the closing brace.
func appendEnvelopeTail(b []byte, env *Envelope) []byte {
	if env.DataRef != "" {
		b = append(b, `,"data_ref":`...)
		b = jsonappend.String(b, env.DataRef)
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

// appendDelta writes a text or reasoning delta as json.Marshal would.
func appendDelta(b []byte, d *DeltaData) []byte {
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(d.Turn), 10)
	b = append(b, `,"text":`...)
	b = jsonappend.String(b, d.Text)
	return append(b, '}')
}
