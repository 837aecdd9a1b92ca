package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/config"
)

func (m *Main) configCommand() *cobra.Command {
	var f commonFlags
	var initFile bool
	c := &cobra.Command{
		Use:   "config [flags]",
		Short: "Show the configuration in effect and where each value came from; --init writes a commented troupe.toml",
		Long: `Show the configuration in effect, one key a line as TOML, each with the layer that set it:
default < user (~/.config/troupe/config.toml) < project (troupe.toml) < env (TROUPE_*) < flag.
Give the same flags as to run or chat to see what they change. docs/CONFIG.md describes every key.

--init writes a commented troupe.toml at the project root (never over an existing one).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if initFile {
				return m.configInit()
			}
			return m.configShow(&f)
		},
	}
	f.register(c)
	f.registerHorizon(c, "unused by config")
	_ = c.Flags().MarkHidden("goal")
	c.Flags().BoolVar(&initFile, "init", false, "write a commented troupe.toml at the project root")
	return c
}

// configShow prints every setting with its source, aligned, as a valid TOML file of dotted keys.
func (m *Main) configShow(f *commonFlags) error {
	s, err := m.resolve(f)
	if err != nil {
		return err
	}
	userFile, projectFile := config.DefaultPaths(s.root, m.Getenv)
	fmt.Fprintf(m.Stdout, "# troupe configuration in effect for %s\n", s.root)
	fmt.Fprintf(m.Stdout, "# user file:    %s\n# project file: %s\n", present(userFile), present(projectFile))
	entries := s.cfg.Entries()
	width := 0
	for _, e := range entries {
		width = max(width, len(e.Key)+3+len(e.Value))
	}
	for _, e := range entries {
		line := e.Key + " = " + e.Value
		fmt.Fprintf(m.Stdout, "%-*s  # %s\n", width, line, sourceLabel(e.Source, userFile, projectFile))
	}
	return nil
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

// configInit writes the commented template at the project root, refusing to replace a file.
func (m *Main) configInit() error {
	root, err := projectRoot()
	if err != nil {
		return err
	}
	path := filepath.Join(root, "troupe.toml")
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return usageErr("%s already exists: troupe config --init never overwrites it (edit it, or move it away first)", path)
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
	fmt.Fprintf(m.Stdout, "wrote %s (every setting commented out; troupe config shows what is in effect)\n", path)
	return nil
}
