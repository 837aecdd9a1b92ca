package openai

import (
	"encoding/json"
	"testing"
)

func TestDetailBlocksMerge(t *testing.T) {
	for _, tc := range []struct {
		name   string
		deltas []string
		want   string
	}{
		{"pieces of one block share an index", []string{
			`[{"type":"reasoning.text","text":"a","index":0}]`, `[{"type":"reasoning.text","text":"b","index":0}]`,
			`[{"type":"reasoning.text","signature":"s","index":0}]`},
			`[{"index":0,"signature":"s","text":"ab","type":"reasoning.text"}]`},
		{"a new index is a new block", []string{
			`[{"type":"reasoning.summary","summary":"x","index":0},{"type":"reasoning.encrypted","data":"e1","index":1}]`,
			`[{"type":"reasoning.encrypted","data":"e2","index":1}]`},
			`[{"index":0,"summary":"x","type":"reasoning.summary"},{"data":"e1e2","index":1,"type":"reasoning.encrypted"}]`},
		{"without an index the same type continues the last block", []string{
			`[{"type":"reasoning.text","text":"a"}]`, `[{"type":"reasoning.text","text":"b"}]`, `[{"type":"reasoning.encrypted","data":"d"}]`},
			`[{"text":"ab","type":"reasoning.text"},{"data":"d","type":"reasoning.encrypted"}]`},
		{"unknown fields travel verbatim", []string{`[{"type":"t","text":"a","index":0,"extra":{"k":[1,2]}}]`},
			`[{"extra":{"k":[1,2]},"index":0,"text":"a","type":"t"}]`},
		{"null and empty arrays add nothing", []string{`null`, `[]`, `[null]`}, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d detailBlocks
			for _, x := range tc.deltas {
				if !d.add(json.RawMessage(x)) {
					t.Fatalf("add(%s) refused", x)
				}
			}
			if got := string(d.marshal()); got != tc.want {
				t.Errorf("got %s\nwant %s", got, tc.want)
			}
		})
	}
	var d detailBlocks
	if d.add(json.RawMessage(`"text"`)) || d.add(json.RawMessage(`{"type":"x"}`)) {
		t.Error("a reasoning_details that is not an array of objects was taken")
	}
}
