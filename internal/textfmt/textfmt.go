// Package textfmt holds the small text helpers every layer needs when it shows text to a
// person or a model: counts with their noun, and UTF-8-safe clipping and previews.
package textfmt

import (
	"strconv"
	"strings"
)

// Count is n with its noun, plural when n is not 1: Count(1, "line") is "1 line",
// Count(3, "line") is "3 lines". Nouns whose plural is not noun+"s" pass it as plural.
func Count(n int, noun string, plural ...string) string {
	if n == 1 {
		return "1 " + noun
	}
	p := noun + "s"
	if len(plural) > 0 {
		p = plural[0]
	}
	return strconv.Itoa(n) + " " + p
}

// Clip returns s cut to at most max bytes on a rune boundary, with "…" appended when it was
// cut. It never splits a UTF-8 sequence.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max <= 0 {
		return "…"
	}
	return Head(s, max) + "…"
}

// FirstLine is the first line of s, trimmed.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// ClipLine is the first line of s, clipped to max bytes.
func ClipLine(s string, max int) string { return Clip(FirstLine(s), max) }
