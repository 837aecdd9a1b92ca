package messages

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// TestPayloadEncodingMatchesMarshal: each payload written by hand is byte for byte what
// json.Marshal writes, with every field zero, set to awkward values, or set to plain ones. A
// field added to one of these structs is set here too (by reflection), so an encoder that
// leaves it out fails.
func TestPayloadEncodingMatchesMarshal(t *testing.T) {
	payloads := []any{&DeltaData{}, &TurnStartedData{}, &UsageData{}, &TurnFinishedData{}, &ToolCallData{}, &DecisionData{}, &ToolFinishedData{}}
	values := []string{"", "plain", `quo"te \ back`, "<b>&amp;</b>", "tab\tnew\nline\x00\x1f\x7f", "café ✓ 🎉", "\u2028", "bad \xff utf-8"}
	for _, p := range payloads {
		if !writtenByHand(p) {
			t.Fatalf("%T is not written by hand", p)
		}
		for i, s := range values {
			v := reflect.New(reflect.TypeOf(p).Elem())
			fillAwkward(t, v.Elem(), s, i-3)
			check(t, v.Interface())
		}
		check(t, p) // all zero: omitempty fields left out
	}
	// Slices of one, several and no strings.
	check(t, &ToolFinishedData{Changed: []string{"a.go"}})
	check(t, &ToolFinishedData{Changed: []string{"a.go", `b "c".go`, ""}})
	check(t, &ToolFinishedData{Changed: []string{}})
	for _, nilPayload := range []any{(*UsageData)(nil), (*ToolCallData)(nil), &SessionStartedData{}, "text"} {
		if writtenByHand(nilPayload) {
			t.Errorf("%#v is written by hand", nilPayload)
		}
		if _, ok := appendPayload(nil, nilPayload); ok {
			t.Errorf("%#v was appended", nilPayload)
		}
	}
}

func check(t *testing.T, p any) {
	t.Helper()
	want, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := appendPayload([]byte("x"), p)
	if !ok || !bytes.Equal(got[1:], want) || got[0] != 'x' {
		t.Errorf("%T:\n got %s (%v)\nwant %s", p, got, ok, want)
	}
	if got, err := MarshalPayload(p); err != nil || !bytes.Equal(got, want) {
		t.Errorf("MarshalPayload(%T) = %s, %v; want %s", p, got, err, want)
	}
}

// fillAwkward sets every field of struct v: strings to s, numbers to n, booleans to n being odd,
// string slices to {s, s}.
func fillAwkward(t *testing.T, v reflect.Value, s string, n int) {
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(s)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(n) * 1_000_003)
		case reflect.Bool:
			f.SetBool(n%2 != 0)
		case reflect.Slice:
			if f.Type().Elem().Kind() != reflect.String {
				t.Fatalf("%s.%s: fill knows no %s", v.Type(), v.Type().Field(i).Name, f.Type())
			}
			f.Set(reflect.ValueOf([]string{s, s}))
		default:
			t.Fatalf("%s.%s: fill knows no %s", v.Type(), v.Type().Field(i).Name, f.Type())
		}
	}
}

// TestEmitWritesWhatMarshalWritesForEveryTurnEvent: what Emit publishes for the payloads
// written by hand is json.Marshal of the envelope it returns, and its Data is the payload's
// JSON.
func TestEmitWritesWhatMarshalWritesForEveryTurnEvent(t *testing.T) {
	var got []byte
	em := NewEmitter("p", "s", "", "parent", 1, func(_ string, data []byte) error {
		got = data
		return nil
	})
	em.now = func() time.Time { return time.Date(2026, 11, 28, 3, 0, 0, 7, time.UTC) }
	for _, p := range []Payload{TurnStartedEvent.Of(&TurnStartedData{Turn: 3}),
		ToolProposedEvent.Of(&ToolCallData{Turn: 3, CallID: "c1", Tool: "read_file", Args: `{"path":"a<b>.go"}`, Summary: "read_file a<b>.go"}),
		ToolDecisionEvent.Of(&DecisionData{Turn: 3, CallID: "c1", Tool: "read_file", Decision: DecisionAllowed, Reason: "read-only"}),
		ToolFinishedEvent.Of(&ToolFinishedData{Turn: 3, CallID: "c1", Tool: "read_file", Output: "package a\n", Bytes: 10, DurationMS: 2}),
		UsageEvent.Of(&UsageData{Turn: 3, InputTokens: 100, CacheReadTokens: 50}),
		TurnFinishedEvent.Of(&TurnFinishedData{Turn: 3, Stop: StopToolCalls, Class: "tool_calls"})} {
		env, err := em.Emit(p)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(env)
		data, _ := json.Marshal(p.Data())
		if !bytes.Equal(got, want) || !bytes.Equal(env.Data, data) {
			t.Errorf("%s published\n%s\nwant\n%s\n(data %s)", p.EventType(), got, want, env.Data)
		}
	}
}
