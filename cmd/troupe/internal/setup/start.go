package setup

import (
	"os"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// StartFlags are the flags of the session-running commands that go into a StartSession.
type StartFlags struct {
	Model, BaseURL, PromptMode, Goal string
	MaxTurns                         int
	NoRepair                         bool
}

// Start resolves the model and fills start from the configuration (cfg, of the project at
// root) and the flags: the one place that turns configuration into what run, resume, chat,
// loop and a detached run send the Node. The caller sets what belongs to its command (ID,
// Task, Interactive, Yes, a loop step's Agent, Parent and LoopStep). client is used only to
// look up the model of a resumed session, which then becomes cfg's model.
func Start(cfg *config.Config, root string, getenv func(string) string, client *actors.Client, f StartFlags, start *messages.StartSession) error {
	if start.Resume {
		// Resume with the model and endpoint the session was using unless told otherwise: a
		// transcript meant for a local server must not go to a provider's public endpoint.
		id, err := nodelink.SessionByID(client, start.ID)
		if err != nil {
			return err
		}
		start.ID = id
		meta, _, err := client.Log(id)
		if err != nil {
			return clierr.Usagef("resume %s: %v (see 'troupe sessions')", id, err)
		}
		if meta.Status == string(messages.StatusRunning) {
			meta = waitStopped(client, meta)
		}
		switch {
		case f.Model == "" && meta.Model != "":
			cfg.Model = meta.Model
			if f.BaseURL == "" && meta.BaseURL != "" {
				cfg.BaseURL = meta.BaseURL
			}
		case f.BaseURL == "" && llm.EndpointFor(meta.Model, meta.BaseURL, cfg.Model) != "":
			cfg.BaseURL = meta.BaseURL // --model of the same provider: its endpoint stays
		}
	}
	model, err := CheckModel(cfg.Model, cfg.BaseURL, getenv)
	if err != nil {
		return err
	}
	idleGap, err := cfg.IdleGapS()
	if err != nil {
		return clierr.Usagef("%v", err) // Validate has seen it already
	}
	if f.PromptMode != "" {
		modes, _ := config.LoadPromptModes(config.PromptModeDirs(root, config.UserDir(getenv))...)
		if _, err := config.FindPromptMode(modes, f.PromptMode); err != nil {
			return clierr.Usagef("--prompt-mode: %v", err)
		}
		start.PromptMode = f.PromptMode
	}
	start.Model, start.BaseURL, start.Mode, start.Workspace, start.MaxTurns = model, cfg.BaseURL, messages.Mode(cfg.Mode), root, f.MaxTurns
	start.NoRepair, start.Placement = f.NoRepair, cfg.Agents.Placement
	start.Cwd = WorkingDirIn(root)
	start.Allow, start.Ask, start.Deny = cfg.Permissions.Allow, cfg.Permissions.Ask, cfg.Permissions.Deny
	start.ContextWindow, start.IdleGapS = cfg.Context.Window, idleGap
	start.Check, start.CheckS, start.MaxRefusals = strings.TrimSpace(cfg.Done.Check), cfg.Done.CheckTimeoutS, cfg.Done.MaxRefusals
	if g := strings.TrimSpace(f.Goal); g != "" {
		start.Goal = g
	}
	start.Env = ClientEnv(os.Environ(), getenv, cfg)
	return nil
}

// ClientEnv is this process's environment as a node serving it in another process needs it:
// tool commands' environment, filtered here as it always is, and the provider variables.
func ClientEnv(environ []string, getenv func(string) string, cfg *config.Config) *messages.ClientEnv {
	env := &messages.ClientEnv{Environ: actors.CommandEnviron(environ, cfg.Env.Pass, cfg.Env.Set)}
	for _, k := range llm.ProviderVars() {
		if v := getenv(k); v != "" {
			if env.Provider == nil {
				env.Provider = map[string]string{}
			}
			env.Provider[k] = v
		}
	}
	return env
}

// stoppedWithin bounds the wait for a running session to stop before it is resumed: the node
// stops one whose client went away (a kill -9) within moments; one still followed by a live
// client keeps running, and the start says so.
const stoppedWithin = 3 * time.Second

// waitStopped waits, briefly, for a session stored as running to stop (its control subject
// no longer answers), and returns its meta as stored then.
func waitStopped(client *actors.Client, meta *messages.SessionInfo) *messages.SessionInfo {
	deadline := time.Now().Add(stoppedWithin)
	for time.Now().Before(deadline) {
		if _, err := client.Status(meta.ID); err != nil {
			if m, _, err := client.Log(meta.ID); err == nil {
				return m
			}
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return meta
}
