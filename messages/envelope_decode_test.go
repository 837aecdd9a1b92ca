package messages

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// decodeSamples are event lines as Emit writes them (plain and awkward values, every optional
// field) and lines that differ from that in ways json.Unmarshal still reads or refuses.
func decodeSamples(t testing.TB) [][]byte {
	var lines [][]byte
	em := NewEmitter("proj", "s1", "", "", 1, func(_ string, data []byte) error {
		lines = append(lines, append([]byte(nil), data...))
		return nil
	})
	for _, agent := range []string{"", "reviewer"} {
		em.Agent, em.Parent = agent, agent
		for _, p := range []Payload{TurnStartedEvent.Of(&TurnStartedData{Turn: 3}),
			TextDeltaEvent.Of(&DeltaData{Turn: 1, Text: "a <b> \"c\"\n é \\ \u2028"}),
			ToolProposedEvent.Of(&ToolCallData{Turn: 3, CallID: "c1", Tool: "bash", Args: `{"command":"ls -la | grep '{'"}`}),
			ToolFinishedEvent.Of(&ToolFinishedData{Turn: 3, CallID: "c1", Output: "x\ty\x00z ]}", Changed: []string{"a.go"}}),
			SessionStartedEvent.Of(&SessionStartedData{Task: "fix it"}), ErrorEvent.Of(&ErrorData{Message: "bad \xff"})} {
			if _, err := em.Emit(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	ts := time.Date(2026, 11, 28, 4, 0, 0, 123, time.UTC)
	for _, env := range []*Envelope{{V: 1, Seq: 1 << 62, TS: ts, NS: "n", Session: "s", Type: EventUsage, DataRef: "ref1", DataBytes: 123456},
		{V: -1, Seq: 0, TS: ts.In(time.FixedZone("x", 3600)), NS: "ñ", Session: "s", Type: "t"},
		{V: 1, Seq: 2, TS: ts, NS: "n", Session: "s", Type: "t", DataObject: &ObjectRef{Bucket: "b", Name: "n"}}} {
		line, _ := json.Marshal(env)
		lines = append(lines, line)
	}
	for _, s := range []string{
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t","data":{"a":[1,{"b":"}"}]}}`,
		` {"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t"} `,
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t","data":{"a": 1 }}`,
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t","data":null}`,
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t","data":"text"}`,
		`{"V":1,"SEQ":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t"}`,
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t","agent":"late"}`,
		`{"v":1,"seq":-2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t"}`,
		`{"v":01,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t"}`,
		`{"v":1.5,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t"}`,
		`{"v":1,"seq":18446744073709551616,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t"}`,
		`{"v":1,"seq":2,"ts":"28 Nov 2026","ns":"n","session":"s","type":"t"}`,
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t","data":{"a":1}`,
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t","data":{"a":"\x01"}}`,
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n","session":"s","type":"t"}x`,
		`{"v":1,"seq":2,"ts":"2026-11-28T04:00:00Z","ns":"n\u0041","session":"s","type":"t"}`,
		`{}`, `[]`, `null`, ``, `{"v":`,
	} {
		lines = append(lines, []byte(s))
	}
	return lines
}

// TestDecodeEnvelopeMatchesUnmarshal: whatever the line, DecodeEnvelope gives what
// json.Unmarshal gives, the same envelope or the same error; and the lines Emit writes are
// read without it.
func TestDecodeEnvelopeMatchesUnmarshal(t *testing.T) {
	fast := 0
	for _, line := range decodeSamples(t) {
		sameAsUnmarshal(t, line)
		var env Envelope
		if decodeWritten(line, &env) {
			fast++
		}
	}
	if fast < 12 {
		t.Errorf("only %d lines were read without json.Unmarshal", fast)
	}
}

func sameAsUnmarshal(t *testing.T, line []byte) {
	t.Helper()
	var got, want Envelope
	gotErr, wantErr := DecodeEnvelope(line, &got), json.Unmarshal(line, &want)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%q: error %v, json.Unmarshal's %v", line, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", line, got, want)
	}
}

func FuzzDecodeEnvelope(f *testing.F) {
	for _, line := range decodeSamples(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line []byte) { sameAsUnmarshal(t, line) })
}
