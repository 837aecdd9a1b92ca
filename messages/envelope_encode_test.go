package messages

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestEnvelopeEncodingMatchesMarshal: the hand-written envelope and delta encodings are
// byte for byte what json.Marshal writes, for plain and awkward strings alike.
func TestEnvelopeEncodingMatchesMarshal(t *testing.T) {
	texts := []string{"", "plain text", `quo"te \ back`, "<b>&amp;</b>", "tab\tnew\nline\r\x00\x1f\x7f",
		"café ✓ 🎉", "\u2028\u2029", "bad \xff utf-8", "</script>"}
	times := []time.Time{time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 120000000, time.FixedZone("x", 3600)), {}}
	for i, s := range texts {
		d := &DeltaData{Turn: i - 2, Text: s}
		want, _ := json.Marshal(d)
		if got := appendDelta(nil, d); !bytes.Equal(got, want) {
			t.Errorf("delta %q:\n got %s\nwant %s", s, got, want)
		}
		for _, ts := range times {
			env := &Envelope{V: Version, Seq: uint64(i) * 1e15, TS: ts, NS: "ns-" + s, Session: s, Agent: s, Parent: s,
				Type: EventType("text." + s), Data: want, DataRef: s, DataBytes: i * 1000}
			if i%2 == 1 {
				env.DataObject = &ObjectRef{Bucket: "b-" + s, Name: "evt/" + s, Bytes: int64(i), Digest: s}
			}
			for _, e := range []*Envelope{env, {V: 1, Seq: 1, TS: ts, NS: "p", Session: "s", Type: EventTextDelta}} {
				want, err := json.Marshal(e)
				if err != nil {
					t.Fatal(err)
				}
				got, err := appendEnvelope(nil, e)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("envelope:\n got %s (%v)\nwant %s", got, err, want)
				}
			}
		}
	}
	bad := &Envelope{TS: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	if _, err := appendEnvelope(nil, bad); err == nil {
		t.Error("a year json.Marshal refuses was encoded")
	}
}

// TestEmitWritesWhatMarshalWrites: the line Emit publishes is json.Marshal of the envelope it
// returns, for a delta (written in place) and any other event alike.
func TestEmitWritesWhatMarshalWrites(t *testing.T) {
	var got [][]byte
	em := NewEmitter("p<1>", "s&1", "a", "", 1, func(_ string, data []byte) error {
		got = append(got, data)
		return nil
	})
	em.now = func() time.Time { return time.Date(2026, 11, 27, 18, 0, 0, 5, time.UTC) }
	for i, p := range []Payload{TextDeltaEvent.Of(&DeltaData{Turn: 2, Text: "a <b> \"c\"\n"}), ReasoningDeltaEvent.Of(&DeltaData{}),
		UsageEvent.Of(&UsageData{Turn: 2, InputTokens: 7})} {
		env, err := em.Emit(p)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(env)
		if !bytes.Equal(got[i], want) {
			t.Errorf("event %d published\n%s\nwant\n%s", i, got[i], want)
		}
	}
}
