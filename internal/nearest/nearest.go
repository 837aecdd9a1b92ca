// Package nearest is the one home of "did you mean …": the edit distance between two names
// and the choice of the closest known name. Distances count runes (a name with non-ASCII
// letters is neither split nor over-penalised) and a swap of two neighbours is one edit, as
// typos are ("modle" is one edit from "model").
package nearest

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Distance is the optimal-string-alignment edit distance between a and b over runes:
// insertions, deletions, substitutions and swaps of adjacent runes each cost one.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: the one before the previous is needed for swaps.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Best returns the candidate closest to name within maxDist edits, or "" when none is that
// close. Ties go to the earlier candidate: list the likelier ones first (and sort names taken
// from a map, so the answer does not depend on map order).
func Best(name string, candidates []string, maxDist int) string {
	best, bestD := "", maxDist+1
	for _, c := range candidates {
		if d := Distance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Names returns up to n candidates plausibly meant by name, closest first: within half the
// name's length (case-insensitive), or containing the name or contained in it.
func Names(name string, candidates []string, n int) []string {
	type scored struct {
		s    string
		dist int
	}
	lower := strings.ToLower(name)
	limit := max(2, utf8.RuneCountInString(name)/2)
	var out []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := Distance(lower, lc)
		if lower != "" && (strings.Contains(lc, lower) || strings.Contains(lower, lc)) {
			d = min(d, 1)
		}
		if d <= limit {
			out = append(out, scored{c, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].dist < out[j].dist })
	names := make([]string, 0, n)
	for i := 0; i < len(out) && i < n; i++ {
		names = append(names, out[i].s)
	}
	return names
}

// WithMargin returns the candidate nearest to name when the choice is clear: its distance is
// small relative to name's length (at most a fifth of it, and at least one edit allowed) and
// every other candidate is at least two edits further. Below that it returns false: a guess is
// never silent.
func WithMargin(name string, candidates []string) (string, bool) {
	best, bestD, secondD := "", -1, -1
	for _, c := range candidates {
		d := Distance(name, c)
		switch {
		case bestD < 0 || d < bestD:
			best, secondD, bestD = c, bestD, d
		case secondD < 0 || d < secondD:
			secondD = d
		}
	}
	if bestD < 0 || bestD > max(1, utf8.RuneCountInString(name)/5) {
		return "", false
	}
	if secondD >= 0 && secondD-bestD < 2 {
		return "", false
	}
	return best, true
}
