package tools

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// This file is the one home of edit-distance and nearest-name logic in tools/: unknown tools,
// tool-name repair and missing paths all ask it. Distances count runes, so a name with
// non-ASCII letters is neither split mid-character nor over-penalised.

// nearest returns up to n candidates closest to name by edit distance (case-insensitive),
// closest first, keeping only those plausibly meant: within half the name's length, or
// containing the name or contained in it.
func nearest(name string, candidates []string, n int) []string {
	type scored struct {
		s    string
		dist int
	}
	lower := strings.ToLower(name)
	limit := max(2, utf8.RuneCountInString(name)/2)
	var out []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(lower, lc)
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

// closestWithMargin returns the candidate nearest to name when the choice is clear: its
// distance is small relative to name's length (at most a fifth of it, and at least one edit
// allowed) and every other candidate is at least two edits further. Below that it returns
// false: a guess is never silent.
func closestWithMargin(name string, candidates []string) (string, bool) {
	best, bestD, secondD := "", -1, -1
	for _, c := range candidates {
		d := editDistance(name, c)
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

// editDistance is the Levenshtein distance between a and b, over runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
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
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
