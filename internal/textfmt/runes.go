package textfmt

import (
	"strings"
	"unicode/utf8"
)

// The cuts below never split a UTF-8 sequence. Head, Tail and the partial-rune trims work on
// strings and byte slices alike (a bounded stream keeps bytes), without copying.

// Head is the longest prefix of s of at most n bytes that ends at a rune boundary.
func Head[T ~string | ~[]byte](s T, n int) T {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return s[:0]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Tail is the longest suffix of s of at most n bytes that starts at a rune boundary.
func Tail[T ~string | ~[]byte](s T, n int) T {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return s[len(s):]
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// TrimPartialRune drops an incomplete UTF-8 sequence at the end of s: the head of a text that
// was cut by bytes without knowing what followed.
func TrimPartialRune[T ~string | ~[]byte](s T) T {
	start := len(s) - 1
	for start > 0 && len(s)-start < utf8.UTFMax && !utf8.RuneStart(s[start]) {
		start--
	}
	if start >= 0 && !utf8.FullRuneInString(string(s[start:])) {
		return s[:start]
	}
	return s
}

// SkipPartialRune drops the continuation bytes at the start of s: the tail of a text that
// was cut by bytes without knowing what came before.
func SkipPartialRune[T ~string | ~[]byte](s T) T {
	i := 0
	for i < len(s) && i < utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// ClipRunes returns s cut to at most n runes, the last of them "…" when it was cut: what
// fits a column n characters wide.
func ClipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n - 1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// WrapRunes cuts each line of s into pieces of at most width runes, so a long command stays
// whole to read. A width below 1 leaves the lines as they are.
func WrapRunes(s string, width int) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for width > 0 && utf8.RuneCountInString(line) > width {
			i := 0
			for range width {
				_, size := utf8.DecodeRuneInString(line[i:])
				i += size
			}
			out = append(out, line[:i])
			line = line[i:]
		}
		out = append(out, line)
	}
	return out
}
