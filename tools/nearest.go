package tools

import (
	"sort"
	"strings"
)

// nearest returns up to n candidates closest to name by edit distance (case-insensitive),
// closest first, keeping only those plausibly meant: within half the name's length, or
// containing the name or contained in it.
func nearest(name string, candidates []string, n int) []string {
	type scored struct {
		s    string
		dist int
	}
	lower := strings.ToLower(name)
	var out []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(lower, lc)
		if lower != "" && (strings.Contains(lc, lower) || strings.Contains(lower, lc)) {
			d = min(d, 1)
		}
		if d <= max(2, len(name)/2) {
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

// editDistance is the Levenshtein distance between a and b, over bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
