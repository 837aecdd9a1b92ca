// Package jsonappend writes JSON values by hand, byte for byte as encoding/json's Marshal
// writes them, for the encodings on a turn's path (events, log entries, session metas): there
// reflection was most of their cost (docs/ARCHITECTURE.md "How a turn flows"). Anything unusual
// is handed to encoding/json itself, so the output never differs.
package jsonappend

import (
	"bytes"
	"encoding/json"
	"time"
)

// String appends s as a JSON string the way json.Marshal writes it. Plain printable ASCII is
// copied; anything json.Marshal escapes (quotes, backslashes, control characters, <, >, &,
// non-ASCII) goes through json.Marshal itself.
func String(b []byte, s string) []byte {
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

// Strings appends ss as a JSON array of strings, as json.Marshal writes a []string.
func Strings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = String(b, s)
	}
	return append(b, ']')
}

// Time appends t as time.Time's MarshalJSON does, and fails where it fails.
func Time(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		raw, err := t.MarshalJSON()
		return append(b, raw...), err
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

// Raw appends raw as json.Marshal writes a json.RawMessage field: compacted, with <, >, & and
// U+2028/U+2029 escaped. Invalid JSON is an error, as it is for json.Marshal.
func Raw(b []byte, raw json.RawMessage) ([]byte, error) {
	if raw == nil {
		return append(b, "null"...), nil
	}
	if !json.Valid(raw) {
		_, err := json.Marshal(raw) // its own words
		return b, err
	}
	if written(raw) {
		return append(b, raw...), nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return b, err
	}
	out := bytes.NewBuffer(b)
	json.HTMLEscape(out, compact.Bytes())
	return out.Bytes(), nil
}

// written says valid JSON raw is already as json.Marshal would write it: no space to drop and
// nothing to escape.
func written(raw []byte) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\r', '\n', '<', '>', '&', 0xE2: // 0xE2 starts U+2028 and U+2029
			return false
		}
	}
	return true
}
