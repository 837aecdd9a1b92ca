package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/tools/hooks"
)

// HookSpec is one [[hooks.EVENT]] table: a command run at that point of the loop (see
// tools/hooks and docs/CONFIG.md "[hooks]").
type HookSpec struct {
	Matcher  string `toml:"matcher"`   // a regular expression on the tool name (tool events)
	Command  string `toml:"command"`   // run with sh -c in the project root
	TimeoutS int    `toml:"timeout_s"` // 0: 60
	// Source is the file it came from; Project says it came with the repository (troupe.toml),
	// so it runs only in a trusted project.
	Source  string `toml:"-"`
	Project bool   `toml:"-"`
}

// ClaudeSettingsFile is where Claude Code keeps a project's settings (and, under the home
// directory, the user's); troupe runs the hooks configured there.
const ClaudeSettingsFile = ".claude/settings.json"

// markProjectHooks records that the layer's hooks came with the repository.
func (l *layer) markProjectHooks(project bool, path string) {
	for event, list := range l.Hooks {
		for i := range list {
			list[i].Project, list[i].Source = project, path
		}
		l.Hooks[event] = list
	}
}

// applyHooks adds a layer's hooks to c's: hooks accumulate across files, the user's first.
func (l *layer) applyHooks(c *Config, path string) {
	if len(l.Hooks) == 0 {
		return
	}
	c.addOrigin("Hooks", path)
	if c.Hooks == nil {
		c.Hooks = map[string][]HookSpec{}
	}
	for event, list := range l.Hooks {
		c.Hooks[event] = append(c.Hooks[event], list...)
	}
}

// validateHooks says what is wrong with the [hooks] tables, one error per hook.
func (c *Config) validateHooks() []error {
	var errs []error
	for _, event := range sortedKeys(c.Hooks) {
		for _, h := range c.Hooks[event] {
			where := fmt.Sprintf("hooks.%s (from %s)", event, h.Source)
			switch {
			case !hooks.Known(event):
				errs = append(errs, fmt.Errorf("%s: unknown event; use one of %s", where, eventList()))
			case strings.TrimSpace(h.Command) == "":
				errs = append(errs, fmt.Errorf("%s: no command; set command = \"…\"", where))
			case h.TimeoutS < 0:
				errs = append(errs, fmt.Errorf("%s: timeout_s is negative; leave it unset for 60 s", where))
			}
			if m := strings.TrimSpace(h.Matcher); m != "" && m != "*" {
				if _, err := regexp.Compile(m); err != nil {
					errs = append(errs, fmt.Errorf("%s: matcher %q is not a regular expression: %v", where, h.Matcher, err))
				}
			}
		}
	}
	return errs
}

func eventList() string {
	names := make([]string, len(hooks.Events))
	for i, e := range hooks.Events {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// HookList is every hook of the project, in the order they run: the user's config, the
// user's Claude Code settings (userClaude), the project's troupe.toml, then the project's
// Claude Code settings (projectClaude). A hook that came with the repository is kept but
// marked skipped unless the project is trusted, so /hooks can say why it does not run.
// projectFile is the project's troupe.toml.
func (c *Config) HookList(projectFile string, userClaude, projectClaude []hooks.Hook) []hooks.Hook {
	trusted := c.trusts(projectFile)
	skip := fmt.Sprintf("the project is not trusted; to run its hooks, add %q to trusted_projects in your user config", projectDir(projectFile))
	var user, project []hooks.Hook
	for _, event := range sortedKeys(c.Hooks) {
		for _, s := range c.Hooks[event] {
			h := hooks.Hook{Event: hooks.Event(event), Matcher: s.Matcher, Command: s.Command, TimeoutS: s.TimeoutS, Source: s.Source}
			if s.Project {
				project = append(project, h)
			} else {
				user = append(user, h)
			}
		}
	}
	out := append(append(user, userClaude...), project...)
	out = append(out, projectClaude...)
	for i := len(user) + len(userClaude); i < len(out); i++ {
		if !trusted {
			out[i].Skipped = skip
		}
	}
	return out
}

// claudeSettings is the part of a Claude Code settings file troupe reads.
type claudeSettings struct {
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type    string  `json:"type"`
			Command string  `json:"command"`
			Timeout float64 `json:"timeout"` // seconds
		} `json:"hooks"`
	} `json:"hooks"`
}

// LoadClaudeHooks reads the hooks of a Claude Code settings file. A missing file is none. A
// file that does not parse is an error naming the file and line; events and hook types
// troupe does not run are left out with a warning each.
func LoadClaudeHooks(path string) (out []hooks.Hook, warnings []string, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var s claudeSettings
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, nil, fmt.Errorf("%s: %s; fix the JSON (its hooks do not run)", path, jsonErrorAt(data, err))
	}
	for _, event := range sortedKeys(s.Hooks) {
		if !hooks.Known(event) {
			warnings = append(warnings, fmt.Sprintf("%s: hooks for %s are not run by troupe (it runs %s)", path, event, eventList()))
			continue
		}
		for _, group := range s.Hooks[event] {
			for _, h := range group.Hooks {
				if h.Type != "" && h.Type != "command" {
					warnings = append(warnings, fmt.Sprintf("%s: a %s hook of type %q is not run by troupe (only type \"command\")", path, event, h.Type))
					continue
				}
				out = append(out, hooks.Hook{Event: hooks.Event(event), Matcher: group.Matcher, Command: h.Command,
					TimeoutS: int(h.Timeout + 0.999), Source: path, Claude: true})
			}
		}
	}
	return out, warnings, nil
}

// ClaudeUserSettings is the user's Claude Code settings file, or "" without a home.
func ClaudeUserSettings(getenv func(string) string) string {
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ClaudeSettingsFile)
	}
	return ""
}

// ProjectHooks gathers the hooks for a project at root (HookList): the config's, the user's
// Claude Code settings and the project's. A Claude Code settings file that does not parse is
// a warning, and its hooks do not run.
func (c *Config) ProjectHooks(root string, getenv func(string) string) (list []hooks.Hook, warnings []string) {
	_, projectFile := DefaultPaths(root, getenv)
	load := func(path string) []hooks.Hook {
		if path == "" {
			return nil
		}
		hs, warn, err := LoadClaudeHooks(path)
		if err != nil {
			warn = append(warn, err.Error())
		}
		warnings = append(warnings, warn...)
		return hs
	}
	user := load(ClaudeUserSettings(getenv))
	project := load(filepath.Join(root, ClaudeSettingsFile))
	return c.HookList(projectFile, user, project), warnings
}
