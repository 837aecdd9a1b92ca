package messages

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestWireRoundTrip(t *testing.T) {
	for kind, mk := range kinds {
		msg := mk()
		// Fill every string field so a dropped json tag would show.
		v := reflect.ValueOf(msg).Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Kind() == reflect.String {
				f.SetString("x-" + v.Type().Field(i).Name)
			}
		}
		data, err := Encode(msg)
		if err != nil {
			t.Fatalf("%s: encode: %v", kind, err)
		}
		got, err := Decode(data)
		if err != nil {
			t.Fatalf("%s: decode: %v", kind, err)
		}
		if !reflect.DeepEqual(got, msg) {
			t.Errorf("%s: round trip changed it:\n got %#v\nwant %#v", kind, got, msg)
		}
	}
}

func TestDecodeRejectsUnknownAndNonWire(t *testing.T) {
	if _, err := Decode([]byte(`{"kind":"nope","body":{}}`)); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown kind: got %v", err)
	}
	if _, err := Decode([]byte(`not json`)); err == nil {
		t.Error("garbage decoded")
	}
	if _, err := Encode(&struct{}{}); err == nil {
		t.Error("encoded a non-wire type")
	}
}

func TestEmitterSeqIsGapFreeAndEnvelopeIsV1(t *testing.T) {
	var subjects []string
	var lines [][]byte
	em := NewEmitter("ns1", "s1", "root", "", 1, func(subj string, data []byte) error {
		subjects = append(subjects, subj)
		lines = append(lines, data)
		return nil
	})
	em.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC) }
	em.Emit(EventSessionStarted, &SessionStartedData{Model: "m"})
	em.Emit(EventTextDelta, &DeltaData{Text: "hi"})
	em.Emit(EventSessionFinished, &SessionFinishedData{Status: StatusDone})
	if subjects[1] != "troupe.ns1.evt.s1.text.delta" {
		t.Errorf("subject = %q", subjects[1])
	}
	for i, line := range lines {
		var env Envelope
		if err := json.Unmarshal(line, &env); err != nil {
			t.Fatal(err)
		}
		if env.V != 1 || env.Seq != uint64(i+1) || env.Session != "s1" || env.NS != "ns1" {
			t.Errorf("line %d: %s", i, line)
		}
		if _, err := env.DecodeData(); err != nil {
			t.Errorf("line %d: %v", i, err)
		}
	}
	if !strings.Contains(string(lines[0]), `"ts":"2026-01-02T03:04:05.000000006Z"`) {
		t.Errorf("ts not RFC3339Nano: %s", lines[0])
	}
}

func TestEmitterContinuesNumbering(t *testing.T) {
	em := NewEmitter("n", "s", "", "", 41, func(string, []byte) error { return nil })
	env, _ := em.Emit(EventTurnStarted, &TurnStartedData{Turn: 1})
	if env.Seq != 41 {
		t.Errorf("seq = %d, want 41", env.Seq)
	}
}

func TestValidToken(t *testing.T) {
	for s, want := range map[string]bool{"abc-1": true, "": false, "a.b": false, "a>": false, "a b": false, "*": false} {
		if ValidToken(s) != want {
			t.Errorf("ValidToken(%q) != %v", s, want)
		}
	}
}

func TestDescribeNamesTargetsWithoutSubjects(t *testing.T) {
	for subject, want := range map[string]string{
		ControlSubject("ns1", "20250101-000000-abcdef"): "session 20250101-000000-abcdef",
		NodeSubject("ns1", "n42"):                       "the troupe node",
		InboxSubject("ns1", "root/a"):                   "agent root/a",
		"something.else":                                "troupe",
	} {
		if got := Describe(subject); got != want {
			t.Errorf("Describe(%q) = %q, want %q", subject, got, want)
		}
	}
}
