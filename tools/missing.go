package tools

import (
	"fmt"
	"github.com/troupe-dev/troupe/internal/nearest"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// missingPath explains that rel does not exist and names the nearest existing entries, so the
// model can correct a typo without another listing.
func missingPath(root, rel string) string {
	dir, base := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		existing := dir
		for existing != "." {
			existing = path.Dir(existing)
			if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(existing))); err == nil && info.IsDir() {
				break
			}
		}
		return fmt.Sprintf("%s does not exist: directory %s does not exist (nearest existing directory: %s)", rel, dir, existing)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		names = append(names, name)
	}
	msg := fmt.Sprintf("%s does not exist", rel)
	if near := nearest.Names(base, names, 5); len(near) > 0 {
		for i, n := range near {
			near[i] = path.Join(dir, n)
			if strings.HasSuffix(n, "/") {
				near[i] += "/"
			}
		}
		msg += "; similar names: " + strings.Join(near, ", ")
	} else {
		msg += fmt.Sprintf("; %s has %d entries (use list_dir to see them)", dir, len(entries))
	}
	return msg
}
