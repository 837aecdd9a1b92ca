// Package configview is the logic of `troupe config`: the configuration in effect, one key a
// line with the layer that set it, and --init's commented troupe.toml.
package configview

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/config"
)

// Show prints every setting of cfg (the project at root's) with its source, aligned, as a valid
// TOML file of dotted keys.
func Show(w io.Writer, root string, cfg *config.Config, getenv func(string) string) {
	userFile, projectFile := config.DefaultPaths(root, getenv)
	fmt.Fprintf(w, "# troupe configuration in effect for %s\n", root)
	fmt.Fprintf(w, "# user file:    %s\n# project file: %s\n", present(userFile), present(projectFile))
	entries := cfg.Entries()
	width := 0
	for _, e := range entries {
		width = max(width, len(e.Key)+3+len(e.Value))
	}
	for _, e := range entries {
		line := e.Key + " = " + e.Value
		fmt.Fprintf(w, "%-*s  # %s\n", width, line, sourceLabel(e.Source, userFile, projectFile))
	}
}

// sourceLabel names a layer the way the user thinks of it: default, user, project, env
// or flag, with the file or variable.
func sourceLabel(src, userFile, projectFile string) string {
	parts := strings.Split(src, " + ")
	for i, p := range parts {
		switch p {
		case userFile:
			parts[i] = "user " + p
		case projectFile:
			parts[i] = "project " + p
		}
	}
	return strings.Join(parts, " + ")
}

func present(path string) string {
	if path == "" {
		return "(none: neither XDG_CONFIG_HOME nor HOME is set)"
	}
	if _, err := os.Stat(path); err != nil {
		return path + " (absent)"
	}
	return path
}

// Init writes the commented template at the project root, refusing to replace a file, and
// says so on w.
func Init(w io.Writer, root string) error {
	path := filepath.Join(root, "troupe.toml")
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return clierr.Usagef("%s already exists: troupe config --init never overwrites it (edit it, or move it away first)", path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := file.WriteString(config.Template); err != nil {
		file.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := file.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(w, "wrote %s (every setting commented out; troupe config shows what is in effect)\n", path)
	return nil
}
