package projection

import (
	"strings"
	"testing"
)

func TestBoundaryRenderGolden(t *testing.T) {
	tests := []struct {
		name string
		b    Boundary
	}{
		{"boundary_model.golden", Boundary{
			FromSeq: 1, ToSeq: 240,
			Summary:      "The user asked to move config loading into config/.\nDone; tests pass.",
			FilesTouched: []string{"config/load.go", "config/load_test.go"},
			KeyResults:   []string{"$ go test ./config → ok", "the retry timeout is read from TROUPE_RETRY"},
			OpenIssues:   []string{"retry timeout is still hard-coded in llm/retry.go"},
			Reason:       "auto-compact at 61% of the window",
		}},
		{"boundary_mechanical_empty.golden", Boundary{FromSeq: 7, ToSeq: 9, Mechanical: true}},
	}
	for _, tt := range tests {
		checkGolden(t, tt.name, tt.b.Render())
	}
}

// TestBoundaryRenderBounded checks that a boundary read from disk cannot flood the context,
// and that items with line breaks stay one list item each.
func TestBoundaryRenderBounded(t *testing.T) {
	var list []string
	for range 500 {
		list = append(list, strings.Repeat("x", 1000)+"\nsecond line")
	}
	b := Boundary{FromSeq: 1, ToSeq: 2, Summary: strings.Repeat("s", 100_000), FilesTouched: list, KeyResults: list, OpenIssues: list}
	r := b.Render()
	if limit := renderSummaryBytes + 3*renderListItems*(renderItemBytes+4) + 1024; len(r) > limit {
		t.Errorf("Render is %d bytes, want ≤ %d", len(r), limit)
	}
	if strings.Contains(r, "\nsecond line") {
		t.Error("a list item's line break survived into the rendering")
	}
	if !strings.HasPrefix(r, "[troupe compact boundary] Entries 1–2 ") || !strings.HasSuffix(r, "[end of compact boundary]") {
		t.Errorf("Render lost its markers:\n%.200s", r)
	}
}
