package config

// Prompt modes (docs/DESIGN-NOTES.md "Context"): a mode changes the instructions the model
// works under and may narrow its tools (ask and plan cannot write). Built-ins, then custom modes
// from .troupe/prompts/<name>.md and the user's config dir (front matter: description, tools,
// read_only; the body is the instructions). Within a mode the stable prefix stays
// byte-identical, so prompt caching keeps working.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"
)

// PromptMode is one prompt mode.
type PromptMode struct {
	Name, Description string
	Instructions      string
	// Tools narrows the session's tools while the mode is on; nil leaves them.
	Tools  []string
	Source string
}

// DefaultPromptMode is the mode a session starts in.
const DefaultPromptMode = "code"

// PromptsDir is where a project keeps its custom prompt modes, relative to the project root.
const PromptsDir = ".troupe/prompts"

// BuiltinPromptModes returns the built-in modes, freshly allocated. Their instructions are short:
// a budget model pays for every byte on every call.
func BuiltinPromptModes() []PromptMode {
	ro := func() []string { return slices.Clone(readOnlyTools) }
	b := func(name, desc, text string, tools []string) PromptMode {
		return PromptMode{Name: name, Description: desc, Instructions: text, Tools: tools, Source: SourceBuiltin}
	}
	return []PromptMode{
		b("code", "Write and change code (the default).", "", nil),
		b("plan", "Investigate and write a plan; change nothing.",
			"Prompt mode plan: investigate with the read-only tools and answer with a numbered plan: files to change, how, and how to verify. Change nothing.", ro()),
		b("ask", "Answer questions about the code; change nothing.",
			"Prompt mode ask: answer the user's question from the code, citing file:line. Change nothing.", ro()),
		b("review", "Review the current changes for bugs and risks.",
			"Prompt mode review: review the changes (git diff, the files they touch). List concrete problems by severity with file:line and a fix; say plainly when you find none. Do not edit.", append(ro(), "bash")),
		b("review-security", "Review the code for security problems.",
			"Prompt mode review-security: look for injection, path traversal, secrets in code or logs, unsafe deserialization, missing auth checks and unsafe defaults. Report each with file:line, impact and a fix. Do not edit.", append(ro(), "bash")),
		b("debug", "Find the root cause of a failure before fixing it.",
			"Prompt mode debug: reproduce the failure first, form a hypothesis, confirm it with evidence (a failing test, a log line), then make the smallest fix and show the reproduction passing.", nil),
		b("brainstorm", "Explore options and trade-offs before building.",
			"Prompt mode brainstorm: offer two to four distinct approaches with their trade-offs and a recommendation. Change nothing unless asked.", ro()),
		b("frontend-design", "Build user interfaces with care for layout and accessibility.",
			"Prompt mode frontend-design: follow the project's existing components and styles; keep layouts responsive and accessible (labels, contrast, keyboard use); check the result in the browser or its tests.", nil),
		b("simplify", "Make code simpler without changing behaviour.",
			"Prompt mode simplify: remove duplication and needless indirection, keep behaviour identical, and run the tests before and after each change.", nil),
	}
}

// PromptModeDirs are the folders custom prompt modes are read from, the project's first.
func PromptModeDirs(projectRoot, userConfigDir string) []string {
	dirs := []string{filepath.Join(projectRoot, filepath.FromSlash(PromptsDir))}
	if userConfigDir != "" {
		dirs = append(dirs, filepath.Join(userConfigDir, "prompts"))
	}
	return dirs
}

// LoadPromptModes returns the built-ins, then custom modes from dirs (the project's first); a
// custom mode with a built-in's name replaces it. Bad files are reported together beside the
// modes that loaded.
func LoadPromptModes(dirs ...string) ([]PromptMode, error) {
	modes := BuiltinPromptModes()
	var errs []error
	seen := map[string]bool{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".md")
			if !ok || e.IsDir() || seen[name] {
				continue
			}
			path := filepath.Join(dir, e.Name())
			data, err := os.ReadFile(path)
			if err != nil {
				errs = append(errs, fmt.Errorf("prompt mode %s: %w", path, err))
				continue
			}
			m, err := ParsePromptMode(name, path, data)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			seen[name] = true
			if i := slices.IndexFunc(modes, func(b PromptMode) bool { return b.Name == name }); i >= 0 {
				modes[i] = m
			} else {
				modes = append(modes, m)
			}
		}
	}
	return modes, errors.Join(errs...)
}

// ParsePromptMode reads a custom mode file: front matter (description; tools; read_only: true
// for the read-only tools) and the instructions as the body.
func ParsePromptMode(name, path string, data []byte) (PromptMode, error) {
	if !roleNameRE.MatchString(name) || len(name) > maxRoleName {
		return PromptMode{}, fmt.Errorf("prompt mode %s: the name %q must be lower-case letters, digits, - or _", path, name)
	}
	front, body, _, err := splitFrontMatter(data)
	if err != nil {
		return PromptMode{}, fmt.Errorf("prompt mode %s: %w", path, err)
	}
	var meta struct {
		Description string    `yaml:"description"`
		Tools       yaml.Node `yaml:"tools"`
		ReadOnly    bool      `yaml:"read_only"`
	}
	if err := yaml.Unmarshal(front, &meta); err != nil {
		return PromptMode{}, fmt.Errorf("prompt mode %s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	m := PromptMode{Name: name, Description: strings.TrimSpace(meta.Description), Instructions: strings.TrimSpace(body), Source: path}
	if m.Instructions == "" {
		return PromptMode{}, fmt.Errorf("prompt mode %s: the instructions (the text after the front matter) are empty", path)
	}
	if meta.Tools.Kind != 0 {
		if m.Tools, err = toolList(&meta.Tools); err != nil {
			return PromptMode{}, fmt.Errorf("prompt mode %s: tools %w", path, err)
		}
	}
	if meta.ReadOnly {
		if m.Tools == nil {
			m.Tools = slices.Clone(readOnlyTools)
		} else {
			m.Tools = slices.DeleteFunc(m.Tools, func(t string) bool { return !slices.Contains(readOnlyTools, t) })
		}
	}
	return m, nil
}

// FindPromptMode returns the mode named name, or an error naming the modes there are (and the
// closest, for a typo).
func FindPromptMode(modes []PromptMode, name string) (PromptMode, error) {
	names := make([]string, 0, len(modes))
	for _, m := range modes {
		if m.Name == name {
			return m, nil
		}
		names = append(names, m.Name)
	}
	return PromptMode{}, fmt.Errorf("no prompt mode %q: use one of %s", name, strings.Join(names, ", "))
}
