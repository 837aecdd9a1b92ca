package messages

import (
	"encoding/json"
	"strconv"
)

// Every client decodes every event it follows (troupe run, chat and watch; a parent following
// its children): DecodeEnvelope reads the line Emit writes without reflection, and hands
// anything else to json.Unmarshal, so its result is always json.Unmarshal's
// (TestDecodeEnvelopeMatchesUnmarshal, FuzzDecodeEnvelope).

// DecodeEnvelope is json.Unmarshal(line, env) for a zero env.
func DecodeEnvelope(line []byte, env *Envelope) error {
	if decodeWritten(line, env) {
		return nil
	}
	*env = Envelope{}
	return json.Unmarshal(line, env)
}

// decodeWritten reads line when it is exactly as Emit writes it (keys in their order, plain
// ASCII strings, no space); false for anything else, env then being partly filled.
func decodeWritten(line []byte, env *Envelope) bool {
	d := lineReader{b: line}
	var ok bool
	if !d.literal(`{"v":`) {
		return false
	}
	var v int64
	if v, ok = d.int(); !ok || !d.literal(`,"seq":`) {
		return false
	}
	env.V = int(v)
	if env.Seq, ok = d.uint(); !ok || !d.literal(`,"ts":`) {
		return false
	}
	ts, ok := d.string() // read by time.Time's own UnmarshalJSON, as json.Unmarshal does
	if !ok || env.TS.UnmarshalJSON(line[d.i-len(ts)-2:d.i]) != nil || !d.literal(`,"ns":`) {
		return false
	}
	if env.NS, ok = d.string(); !ok || !d.literal(`,"session":`) {
		return false
	}
	if env.Session, ok = d.string(); !ok {
		return false
	}
	if d.literal(`,"agent":`) {
		if env.Agent, ok = d.string(); !ok {
			return false
		}
	}
	if d.literal(`,"parent":`) {
		if env.Parent, ok = d.string(); !ok {
			return false
		}
	}
	if !d.literal(`,"type":`) {
		return false
	}
	var typ string
	if typ, ok = d.string(); !ok {
		return false
	}
	env.Type = EventType(typ)
	if d.literal(`,"data":`) {
		if env.Data, ok = d.value(); !ok {
			return false
		}
	}
	if d.literal(`,"data_ref":`) {
		if env.DataRef, ok = d.string(); !ok {
			return false
		}
	}
	if d.literal(`,"data_bytes":`) {
		if v, ok = d.int(); !ok {
			return false
		}
		env.DataBytes = int(v)
	}
	return d.literal(`}`) && d.i == len(d.b) // data_object, and anything else, goes to json.Unmarshal
}

// lineReader reads the parts of an event line in order.
type lineReader struct {
	b []byte
	i int
}

func (d *lineReader) literal(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

// digits reads a run of ASCII digits, with a leading minus sign when signed.
func (d *lineReader) digits(signed bool) (string, bool) {
	start := d.i
	if signed && d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	first := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	n := d.i - first
	if n == 0 || n > 1 && d.b[first] == '0' { // JSON has no leading zeros
		return "", false
	}
	return string(d.b[start:d.i]), true
}

func (d *lineReader) int() (int64, bool) {
	s, ok := d.digits(true)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	return n, err == nil
}

func (d *lineReader) uint() (uint64, bool) {
	s, ok := d.digits(false)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// string reads a string of printable ASCII without escapes (what json.Unmarshal gives back
// unchanged).
func (d *lineReader) string() (string, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", false
	}
	for j := d.i + 1; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			s := string(d.b[d.i+1 : j])
			d.i = j + 1
			return s, true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return "", false
		}
	}
	return "", false
}

// value reads one JSON object or array, checked whole, as json.Unmarshal keeps it in a
// json.RawMessage (its bytes as they are).
func (d *lineReader) value() (json.RawMessage, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '{' && d.b[d.i] != '[' {
		return nil, false
	}
	depth, inString := 0, false
	for j := d.i; j < len(d.b); j++ {
		c := d.b[j]
		switch {
		case inString && c == '\\':
			j++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				raw := d.b[d.i : j+1]
				if !json.Valid(raw) {
					return nil, false
				}
				d.i = j + 1
				return append(json.RawMessage(nil), raw...), true
			}
		}
	}
	return nil, false
}
