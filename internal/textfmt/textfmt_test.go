package textfmt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 lines"}, {1, "1 line"}, {2, "2 lines"}} {
		if got := Count(tc.n, "line"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := Count(2, "entry", "entries"); got != "2 entries" {
		t.Errorf("irregular plural: %q", got)
	}
}

func TestClipKeepsUTF8Whole(t *testing.T) {
	s := strings.Repeat("héllo wörld 日本語 ", 20)
	for max := 0; max < len(s)+2; max++ {
		got := Clip(s, max)
		if !utf8.ValidString(got) {
			t.Fatalf("Clip(_, %d) split a rune: %q", max, got)
		}
		if body := strings.TrimSuffix(got, "…"); len(body) > max && len(s) > max {
			t.Fatalf("Clip(_, %d) kept %d bytes", max, len(body))
		}
	}
	if Clip("short", 10) != "short" {
		t.Error("a short string was changed")
	}
}

func TestClipLine(t *testing.T) {
	if got := ClipLine("  first line here\nsecond", 5); got != "first…" {
		t.Errorf("ClipLine = %q", got)
	}
}
