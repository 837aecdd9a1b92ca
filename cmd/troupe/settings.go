package main

import (
	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/cmdtree"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodeconf"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
)

// commonFlags are the flags shared by the commands that run sessions.
type commonFlags struct {
	model, baseURL, mode, sandbox string
	promptMode, nats, natsCreds   string
	placement                     string
	maxTurns                      int
	noRepair                      bool

	// The long-horizon flags (registerHorizon): the goal, the definition of done, the window.
	goal                       string
	check                      cmdtree.OptString
	contextWindow, maxRefusals int
}

func (f *commonFlags) register(c *cobra.Command) {
	f.registerSetup(c)
	c.Flags().IntVar(&f.maxTurns, "max-turns", 0, "stop after this many model turns (default 100)")
	c.Flags().BoolVar(&f.noRepair, "no-repair", false, "switch turn repair off: calls written as text are not run, loops are not steered (for measuring)")
	c.Flags().StringVar(&f.nats, "nats", "", "join this external NATS server or cluster (nats://host:4222[,…]) instead of starting an embedded one")
	c.Flags().StringVar(&f.placement, "placement", "", "where subagents run: local, workers (troupe worker processes) or auto")
	c.Flags().StringVar(&f.natsCreds, "nats-creds", "", "a .creds file (user JWT and seed) to authenticate to the --nats server (overrides [bus] creds)")
	c.Flags().StringVar(&f.promptMode, "prompt-mode", "", "prompt mode: code (default), plan, review, debug, ask, brainstorm, frontend-design, review-security, simplify, or one from .troupe/prompts")
}

// registerSetup adds the flags that say which model and permissions a session gets: all that
// doctor, which runs no session, takes.
func (f *commonFlags) registerSetup(c *cobra.Command) {
	c.Flags().StringVar(&f.model, "model", "", "model as provider/model (openai/gpt-4o-mini, anthropic/claude-sonnet-4-5, gemini/gemini-2.5-flash, openrouter/…, deepseek/…, ollama/qwen2.5-coder) or scripted:FILE")
	c.Flags().StringVar(&f.baseURL, "base-url", "", "base URL of an OpenAI-compatible (or other) provider endpoint")
	c.Flags().StringVar(&f.mode, "mode", "", "permission mode: plan, ask, auto-edit, yolo")
	c.Flags().StringVar(&f.sandbox, "sandbox", "", "sandbox for bash: auto, landlock, bwrap, off")
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
	node *nodeconf.Project // what a node is built from, once built (Main.project)
}

// resolve loads the layered configuration and applies the flags on top.
func (m *Main) resolve(f *commonFlags) (*settings, error) {
	root, err := setup.ProjectRoot()
	if err != nil {
		return nil, err
	}
	var flags *setup.Flags
	if f != nil {
		flags = &setup.Flags{MaxTurns: f.maxTurns, Overrides: config.Overrides{Model: f.model, BaseURL: f.baseURL, Mode: f.mode,
			Sandbox: f.sandbox, NATS: f.nats, NATSCreds: f.natsCreds, Placement: f.placement, Check: f.check.Ptr(), ContextWindow: f.contextWindow, MaxRefusals: f.maxRefusals}}
	}
	cfg, err := setup.Load(root, m.Getenv, m.Stderr, flags)
	if err != nil {
		return nil, err
	}
	m.trace.Mark(starttrace.Config)
	return &settings{root: root, cfg: cfg}, nil
}
