package config

import (
	"github.com/troupe-dev/troupe/internal/nearest"
	"reflect"
	"slices"
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
	if len(unknown) == 3 && unknown[0] == "hooks" { // [[hooks.EVENT]] tables: their own keys
		if near := nearest.Best(unknown[2], []string{"command", "matcher", "timeout_s"}, 2); near != "" {
			return joinKey([]string{"hooks", unknown[1], near})
		}
	}
	want := joinKey(unknown)
	keys := knownKeys()
	slices.Sort(keys) // a tie goes to the key that sorts first
	return nearest.Best(want, keys, max(2, len(want)/3))
}
