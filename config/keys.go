package config

import (
	"reflect"
	"strings"
)

// joinKey writes a TOML key path as it appears in a file: "done.max_refusals".
func joinKey(key []string) string { return strings.Join(key, ".") }

// knownKeys lists every key a configuration file may set, as dotted paths.
func knownKeys() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "" || name == "-" {
				continue
			}
			out = append(out, prefix+name)
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+name+".")
			}
		}
	}
	walk(reflect.TypeFor[layer](), "")
	return out
}

// nearestKey suggests the known key closest to an unknown one, comparing whole dotted paths
// (so a key in the right table wins), within an edit distance that still looks like a typo.
// It returns "" if nothing is close.
func nearestKey(unknown []string) string {
	want := joinKey(unknown)
	best, bestDist := "", -1
	for _, k := range knownKeys() {
		d := editDistance(want, k)
		if bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if bestDist < 0 || bestDist > max(2, len(want)/3) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
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
