package jsonfix

import (
	"encoding/json"
	"testing"
)

func TestRepair(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": 1,}`:           `{"a": 1}`,
		`{'a': 'b'}`:          `{"a": "b"}`,
		`{"a": [1, 2`:         `{"a": [1, 2]}`,
		"  {\"a\": true}  \n": `{"a": true}`,
	} {
		got, ok := Repair(in)
		if !ok || !json.Valid([]byte(got)) {
			t.Errorf("Repair(%q) = %q, %v", in, got, ok)
			continue
		}
		var g, w any
		json.Unmarshal([]byte(got), &g)
		json.Unmarshal([]byte(want), &w)
		if gb, _ := json.Marshal(g); string(gb) != mustJSON(w) {
			t.Errorf("Repair(%q) = %s, want %s", in, got, want)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
