package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
)

// commonFlags are the flags shared by the commands that run sessions.
type commonFlags struct {
	model, baseURL, mode, sandbox string
	promptMode, nats              string
	maxTurns                      int
	noRepair                      bool

	// The long-horizon flags (registerHorizon): the goal, the definition of done, the window.
	goal                       string
	check                      optString
	contextWindow, maxRefusals int
}

// optString is a string flag that tells "not given" from "given empty" (--check "" turns a
// configured check off).
type optString struct {
	val string
	set bool
}

func (o *optString) Set(v string) error { o.val, o.set = v, true; return nil }
func (o *optString) String() string     { return o.val }
func (o *optString) Type() string       { return "string" }

// ptr is the value if the flag was given, else nil.
func (o *optString) ptr() *string {
	if !o.set {
		return nil
	}
	return &o.val
}

func (f *commonFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.model, "model", "", "model as provider/model (openai/gpt-4o-mini, anthropic/claude-sonnet-4-5, gemini/gemini-2.5-flash, openrouter/…, deepseek/…, ollama/qwen2.5-coder) or scripted:FILE")
	c.Flags().StringVar(&f.baseURL, "base-url", "", "base URL of an OpenAI-compatible (or other) provider endpoint")
	c.Flags().StringVar(&f.mode, "mode", "", "permission mode: plan, ask, auto-edit, yolo")
	c.Flags().StringVar(&f.sandbox, "sandbox", "", "sandbox for bash: auto, landlock, bwrap, off")
	c.Flags().IntVar(&f.maxTurns, "max-turns", 0, "stop after this many model turns (default 100)")
	c.Flags().BoolVar(&f.noRepair, "no-repair", false, "switch turn repair off: calls written as text are not run, loops are not steered (for measuring)")
	c.Flags().StringVar(&f.nats, "nats", "", "join this external NATS server or cluster (nats://host:4222[,…]) instead of starting an embedded one")
	c.Flags().StringVar(&f.promptMode, "prompt-mode", "", "prompt mode: code (default), plan, review, debug, ask, brainstorm, frontend-design, review-security, simplify, or one from .troupe/prompts")
}

// registerHorizon adds the flags of long sessions: run, resume, chat and loop take them.
// goalUsage describes --goal, which means something different to each command.
func (f *commonFlags) registerHorizon(c *cobra.Command, goalUsage string) {
	c.Flags().StringVar(&f.goal, "goal", "", goalUsage)
	c.Flags().Var(&f.check, "check", "a command that must pass before a final answer is accepted, e.g. \"go test ./...\" (overrides [done] check; \"\" turns it off)")
	c.Flags().IntVar(&f.contextWindow, "context-window", 0, "the model's context window in tokens (overrides [context] window and the known value)")
	c.Flags().IntVar(&f.maxRefusals, "max-refusals", 0, "refused final answers the model may act on; the next refusal fails the run (default 3, or [done] max_refusals)")
}

// settings is everything a session-running command resolved before it starts.
type settings struct {
	root string // project root: the git root, or the working directory
	cfg  *config.Config
	// wire is the store the providers of a node started here remember endpoints in; set once
	// the node has opened it (nodeOptions builds the providers' factory before).
	wire *llm.MemoryRef
}

// projectRoot is the git top level of the working directory, or the directory itself.
func projectRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return config.ProjectRoot(wd), nil
}

// workingDirIn is the working directory relative to root ("" for root itself or outside it):
// the instruction files from the root down to it go into the session's stable prefix.
func workingDirIn(root string) string {
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

// validate refuses flag values no run can use, before anything starts (the ones that are
// also config keys are checked by config.Validate, which names where a value came from).
func (f *commonFlags) validate() error {
	if f.maxTurns < 0 {
		return usageErr("--max-turns %d: give a positive number of turns (0 or leaving it out means the default, 100)", f.maxTurns)
	}
	return nil
}

// resolve loads the layered configuration and applies the flags on top.
func (m *Main) resolve(f *commonFlags) (*settings, error) {
	root, err := projectRoot()
	if err != nil {
		return nil, err
	}
	userFile, projectFile := config.DefaultPaths(root, m.Getenv)
	cfg, err := config.Load(config.LoadOptions{UserFile: userFile, ProjectFile: projectFile, Getenv: m.Getenv})
	if err != nil {
		return nil, usageErr("%v", err)
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(m.Stderr, "troupe: warning: %s\n", w)
	}
	if f != nil {
		if err := f.validate(); err != nil {
			return nil, err
		}
		configured := cfg.Model
		cfg.Apply(config.Overrides{Model: f.model, BaseURL: f.baseURL, Mode: f.mode, Sandbox: f.sandbox, NATS: f.nats,
			Check: f.check.ptr(), ContextWindow: f.contextWindow, MaxRefusals: f.maxRefusals})
		if f.baseURL == "" && configured != "" {
			// A configured base_url belongs to the configured model's provider (llm.EndpointFor).
			cfg.BaseURL = llm.EndpointFor(configured, cfg.BaseURL, cfg.Model)
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, usageErr("%v", err)
	}
	m.trace.Mark(starttrace.Config)
	return &settings{root: root, cfg: cfg}, nil
}

// checkModel makes sure the model can be opened here, so a setup mistake is one clear line and
// exit 2 before anything starts. It returns the model string as sessions should receive it (a
// scripted path made absolute, since the Node may run in another directory).
func (m *Main) checkModel(model, baseURL string) (string, error) {
	if model == "" {
		return "", usageErr("no model: pass --model provider/model (e.g. openai/gpt-4o-mini, ollama/qwen2.5-coder, scripted:script.json) or set model in troupe.toml")
	}
	if path, ok := strings.CutPrefix(model, "scripted:"); ok {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", usageErr("scripted model path %s: %v", path, err)
		}
		model = "scripted:" + abs
	}
	if _, _, err := llm.Open(model, llm.Options{BaseURL: baseURL, Getenv: m.Getenv}); err != nil {
		var se *llm.SetupError
		if errors.As(err, &se) {
			return "", usageErr("%s", se.Msg)
		}
		return "", usageErr("%v", err)
	}
	return model, nil
}
