// Package setup resolves what a troupe command runs with before anything starts: the project
// root, the layered configuration with the command line's overrides on top, and a model that
// can be opened here. Its mistakes are usage errors (exit 2), one line each.
package setup

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
)

// ProjectRoot is the git top level of the working directory, or the directory itself.
func ProjectRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return config.ProjectRoot(wd), nil
}

// WorkingDirIn is the working directory relative to root ("" for root itself or outside it):
// the instruction files from the root down to it go into the session's stable prefix.
func WorkingDirIn(root string) string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real // as ProjectRoot resolved the root
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel)
}

// Flags are the command line's overrides of the configuration, and the flags no configuration
// holds that are checked with them.
type Flags struct {
	config.Overrides
	MaxTurns int
}

// validate refuses flag values no run can use, before anything starts (the ones that are
// also config keys are checked by config.Validate, which names where a value came from).
func (f *Flags) validate() error {
	if f.MaxTurns < 0 {
		return clierr.Usagef("--max-turns %d: give a positive number of turns (0 or leaving it out means the default, 100)", f.MaxTurns)
	}
	return nil
}

// Load loads the layered configuration of the project at root, says its warnings on stderr,
// applies the command line's flags on top (nil: none) and validates the result.
func Load(root string, getenv func(string) string, stderr io.Writer, f *Flags) (*config.Config, error) {
	userFile, projectFile := config.DefaultPaths(root, getenv)
	cfg, err := config.Load(config.LoadOptions{UserFile: userFile, ProjectFile: projectFile, Getenv: getenv})
	if err != nil {
		return nil, clierr.Usagef("%v", err)
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "troupe: warning: %s\n", w)
	}
	if f != nil {
		if err := f.validate(); err != nil {
			return nil, err
		}
		configured := cfg.Model
		cfg.Apply(f.Overrides)
		if f.BaseURL == "" && configured != "" {
			// A configured base_url belongs to the configured model's provider (llm.EndpointFor).
			cfg.BaseURL = llm.EndpointFor(configured, cfg.BaseURL, cfg.Model)
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, clierr.Usagef("%v", err)
	}
	return cfg, nil
}

// CheckModel makes sure the model can be opened here, so a setup mistake is one clear line and
// exit 2 before anything starts. It returns the model string as sessions should receive it (a
// scripted path made absolute, since the Node may run in another directory).
func CheckModel(model, baseURL string, getenv func(string) string) (string, error) {
	if model == "" {
		example := "e.g. openai/gpt-4o-mini, ollama/qwen2.5-coder, scripted:script.json"
		if m, key := llm.SuggestModel(getenv); m != "" {
			example = fmt.Sprintf("%s is set, so e.g. --model %s", key, m)
		}
		return "", clierr.Usagef("no model: pass --model provider/model (%s) or set model = \"provider/model\" in troupe.toml (troupe config --init writes one) or in your user config", example)
	}
	if path, ok := strings.CutPrefix(model, "scripted:"); ok {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", clierr.Usagef("scripted model path %s: %v", path, err)
		}
		model = "scripted:" + abs
	}
	if _, _, err := llm.Open(model, llm.Options{BaseURL: baseURL, Getenv: getenv}); err != nil {
		var se *llm.SetupError
		if errors.As(err, &se) {
			return "", clierr.Usagef("%s", se.Msg)
		}
		return "", clierr.Usagef("%v", err)
	}
	return model, nil
}

// Logger is troupe's log on w at the level TROUPE_LOG names (debug, info, error; warn
// otherwise).
func Logger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	switch strings.ToLower(level) {
	case "debug":
		l = slog.LevelDebug
	case "info":
		l = slog.LevelInfo
	case "error":
		l = slog.LevelError
	default:
		l = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}
