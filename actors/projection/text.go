package projection

import (
	"slices"
	"strconv"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// clip returns s cut to at most n bytes at a rune boundary, with "…" appended when cut (the
// marker is counted in n).
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	if n <= len(ellipsis) {
		return textfmt.Head(s, n)
	}
	return textfmt.Head(s, n-len(ellipsis)) + ellipsis
}

// firstLine returns the first non-blank line of s, trimmed and clipped to n bytes.
func firstLine(s string, n int) string {
	for line := range strings.Lines(s) {
		if t := strings.TrimSpace(line); t != "" {
			return clip(t, n)
		}
	}
	return ""
}

// headTail keeps s within n bytes: its head and its tail, with a marker saying how much was
// dropped between them. Errors and summaries sit at both ends of an output, so both survive.
func headTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	half := max(n/2-32, 0) // room for the marker
	head, tail := textfmt.Head(s, half), textfmt.Tail(s, half)
	return head + "\n… " + strconv.Itoa(len(s)-len(head)-len(tail)) + " bytes omitted …\n" + tail
}

// boundList keeps at most n items of list, each clipped to itemBytes: the first quarter and
// the rest from the end, with a marker in between. The first items of a span say what the work
// was about, the last ones where it stands.
func boundList(list []string, n, itemBytes int) []string {
	if len(list) == 0 {
		return nil
	}
	out := make([]string, 0, min(len(list), n))
	if len(list) <= n {
		for _, s := range list {
			out = append(out, clip(s, itemBytes))
		}
		return out
	}
	if n <= 1 {
		return []string{clip(list[len(list)-1], itemBytes)}
	}
	keep := n - 1 // one slot for the marker
	head := keep / 4
	for _, s := range list[:head] {
		out = append(out, clip(s, itemBytes))
	}
	out = append(out, "… "+strconv.Itoa(len(list)-keep)+" more …")
	for _, s := range list[len(list)-(keep-head):] {
		out = append(out, clip(s, itemBytes))
	}
	return out
}

// appendUnique appends the items of add that list does not hold yet.
func appendUnique(list []string, add ...string) []string {
	for _, s := range add {
		if s != "" && !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}
