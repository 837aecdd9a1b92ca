package jsonappend

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

var awkward = []string{"", "plain text", `quo"te \ back`, "<b>&amp;</b>", "tab\tnew\nline\r\x00\x1f\x7f",
	"café ✓ 🎉", "\u2028\u2029", "bad \xff utf-8", "</script>"}

func TestStringAndTimeMatchMarshal(t *testing.T) {
	for _, s := range awkward {
		want, _ := json.Marshal(s)
		if got := String([]byte("x"), s); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
	}
	for _, ss := range [][]string{{}, {"one"}, awkward} {
		want, _ := json.Marshal(ss)
		if got := Strings(nil, ss); !bytes.Equal(got, want) {
			t.Errorf("Strings(%q) = %s, want %s", ss, got, want)
		}
	}
	for _, tm := range []time.Time{{}, time.Date(2026, 1, 2, 3, 4, 5, 120000000, time.FixedZone("x", 3600)), time.Date(2026, 11, 28, 3, 0, 0, 1, time.UTC)} {
		want, _ := json.Marshal(tm)
		if got, err := Time(nil, tm); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Time(%v) = %s, %v; want %s", tm, got, err, want)
		}
	}
	if _, err := Time(nil, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("a year json.Marshal refuses was written")
	}
}

// TestRawMatchesMarshal: a RawMessage field as json.Marshal writes it, compacted and escaped,
// and refused where json.Marshal refuses it.
func TestRawMatchesMarshal(t *testing.T) {
	type field struct {
		R json.RawMessage `json:"r"`
	}
	for _, raw := range []string{`{"a":1}`, ` { "a" : [1, 2] }`, `"<b>&</b>"`, "\"\u2028\"", `{"k":"tab\tinside"}`, "[\n1,\n2\n]", `null`, `"café"`} {
		want, err := json.Marshal(field{json.RawMessage(raw)})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Raw([]byte(`{"r":`), json.RawMessage(raw))
		if err != nil || !bytes.Equal(append(got, '}'), want) {
			t.Errorf("Raw(%q) = %s, %v; want %s", raw, got, err, want)
		}
	}
	if got, err := Raw(nil, nil); err != nil || string(got) != "null" {
		t.Errorf("Raw(nil) = %s, %v", got, err)
	}
	for _, bad := range []string{`{`, `{"a":}`, `1 2`, "", "\xff"} {
		if _, err := Raw(nil, json.RawMessage(bad)); err == nil {
			t.Errorf("Raw(%q) accepted invalid JSON", bad)
		}
	}
}
