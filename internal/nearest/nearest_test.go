package nearest

import (
	"slices"
	"testing"
)

func TestEditDistanceRunes(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"résumé", "resume", 2},
		{"日本語", "日本", 1},
		{"😀a", "😁a", 1},
		{"modle", "model", 1}, // a swap is one typo
	}
	for _, tc := range tests {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"read_file", "write_file", "edit_file", "list_dir"}
	if got := Names("reed_file", names, 2); len(got) != 2 || got[0] != "read_file" {
		t.Errorf("nearest = %v", got)
	}
	if got := Names("zzzz", names, 3); len(got) != 0 {
		t.Errorf("nearest of an unrelated name = %v", got)
	}
	if got := Names("café.go", []string{"cafe.go", "main.go"}, 1); !slices.Equal(got, []string{"cafe.go"}) {
		t.Errorf("nearest over runes = %v", got)
	}
}

func TestClosestWithMargin(t *testing.T) {
	tests := []struct {
		name       string
		candidates []string
		want       string
	}{
		{"readfile", []string{"readfile", "writefile"}, "readfile"},
		{"reedfile", []string{"readfile", "writefile", "editfile"}, "readfile"},
		{"listc", []string{"lista", "listb"}, ""}, // tie: no margin
		{"rdfl", []string{"readfile"}, ""},        // too far for the length
		{"xyzxyzxyzxyz", []string{"xyzxyzxyzxya"}, "xyzxyzxyzxya"},
	}
	for _, tc := range tests {
		got, ok := WithMargin(tc.name, tc.candidates)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("WithMargin(%q) = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}

func TestBestIsStableAndBounded(t *testing.T) {
	if got := Best("stauts", []string{"status", "start"}, 2); got != "status" {
		t.Errorf("Best = %q", got)
	}
	if got := Best("modle", []string{"model", "mode"}, 1); got != "model" {
		t.Errorf("a tie must go to the earlier candidate: %q", got)
	}
	if got := Best("zzzz", []string{"status"}, 2); got != "" {
		t.Errorf("Best of a far name = %q", got)
	}
}
