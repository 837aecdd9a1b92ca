package textfmt

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestHeadAndTailCutOnRuneBoundaries(t *testing.T) {
	const s = "añb€c" // a, ñ (2 bytes), b, € (3 bytes), c: 8 bytes
	for _, tc := range []struct {
		n          int
		head, tail string
	}{
		{-1, "", ""}, {0, "", ""}, {1, "a", "c"}, {2, "a", "c"}, {3, "añ", "c"}, {4, "añb", "€c"},
		{5, "añb", "b€c"}, {6, "añb", "b€c"}, {7, "añb€", "ñb€c"}, {8, s, s}, {100, s, s},
	} {
		if got := Head(s, tc.n); got != tc.head {
			t.Errorf("Head(%d) = %q, want %q", tc.n, got, tc.head)
		}
		if got := Tail(s, tc.n); got != tc.tail {
			t.Errorf("Tail(%d) = %q, want %q", tc.n, got, tc.tail)
		}
		if got := Head([]byte(s), tc.n); string(got) != tc.head {
			t.Errorf("Head([]byte, %d) = %q, want %q", tc.n, got, tc.head)
		}
		if got := Tail([]byte(s), tc.n); string(got) != tc.tail {
			t.Errorf("Tail([]byte, %d) = %q, want %q", tc.n, got, tc.tail)
		}
	}
}

func TestPartialRunesAreTrimmedAtTheCut(t *testing.T) {
	const s = "a€b€" // € is e2 82 ac
	for n := 0; n <= len(s); n++ {
		head := TrimPartialRune(s[:n])
		if !utf8.ValidString(head) || len(head) < n-2 || s[:len(head)] != head {
			t.Errorf("TrimPartialRune(%q) = %q", s[:n], head)
		}
		tail := SkipPartialRune([]byte(s[n:]))
		if !utf8.Valid(tail) || len(tail) < len(s)-n-2 || s[len(s)-len(tail):] != string(tail) {
			t.Errorf("SkipPartialRune(%q) = %q", s[n:], tail)
		}
	}
	if got := TrimPartialRune("ok"); got != "ok" {
		t.Errorf("whole text trimmed: %q", got)
	}
	if got := TrimPartialRune("\xff"); got != "\xff" {
		t.Errorf("an invalid byte is not a partial rune: %q", got)
	}
}

func TestClipRunesFitsAColumn(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"hello", 5, "hello"}, {"hello", 4, "hel…"}, {"héllo wörld", 6, "héllo…"}, {"日本語です", 3, "日本…"},
		{"abc", 1, "…"}, {"abc", 0, "…"}, {"", 0, ""},
	} {
		got := ClipRunes(tc.s, tc.n)
		if got != tc.want {
			t.Errorf("ClipRunes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if tc.n > 0 && utf8.RuneCountInString(got) > tc.n {
			t.Errorf("ClipRunes(%q, %d) is %d runes", tc.s, tc.n, utf8.RuneCountInString(got))
		}
	}
}

func TestWrapRunesKeepsEveryRune(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  []string
	}{
		{"abcdef", 4, []string{"abcd", "ef"}},
		{"añbñcñ\nxy", 2, []string{"añ", "bñ", "cñ", "xy"}},
		{"abcd", 2, []string{"ab", "cd"}},
		{"line\n", 10, []string{"line", ""}},
		{"abc", 0, []string{"abc"}},
		{"", 3, []string{""}},
	} {
		if got := WrapRunes(tc.s, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("WrapRunes(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
