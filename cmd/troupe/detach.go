package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/background"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// sessionStart resolves the model and fills start from the settings and flags: the one place
// that turns configuration into what run, resume, chat, loop and a detached run send the Node.
// The caller sets what belongs to its command (ID, Task, Interactive, Yes, a loop step's
// Agent, Parent and LoopStep). client is used only to look up the model of a resumed session.
func (m *Main) sessionStart(s *settings, client *actors.Client, f *commonFlags, start *messages.StartSession) error {
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
			return usageErr("resume %s: %v (see 'troupe sessions')", id, err)
		}
		switch {
		case f.model == "" && meta.Model != "":
			s.cfg.Model = meta.Model
			if f.baseURL == "" && meta.BaseURL != "" {
				s.cfg.BaseURL = meta.BaseURL
			}
		case f.baseURL == "" && llm.EndpointFor(meta.Model, meta.BaseURL, s.cfg.Model) != "":
			s.cfg.BaseURL = meta.BaseURL // --model of the same provider: its endpoint stays
		}
	}
	model, err := m.checkModel(s.cfg.Model, s.cfg.BaseURL)
	if err != nil {
		return err
	}
	idleGap, err := s.cfg.IdleGapS()
	if err != nil {
		return usageErr("%v", err) // Validate has seen it already
	}
	if f.promptMode != "" {
		modes, _ := config.LoadPromptModes(config.PromptModeDirs(s.root, config.UserDir(m.Getenv))...)
		if _, err := config.FindPromptMode(modes, f.promptMode); err != nil {
			return usageErr("--prompt-mode: %v", err)
		}
		start.PromptMode = f.promptMode
	}
	start.Model, start.BaseURL, start.Mode, start.Workspace, start.MaxTurns = model, s.cfg.BaseURL, messages.Mode(s.cfg.Mode), s.root, f.maxTurns
	start.NoRepair = f.noRepair
	start.Cwd = workingDirIn(s.root)
	start.Allow, start.Ask, start.Deny = s.cfg.Permissions.Allow, s.cfg.Permissions.Ask, s.cfg.Permissions.Deny
	start.ContextWindow, start.IdleGapS = s.cfg.Context.Window, idleGap
	start.Check, start.CheckS, start.MaxRefusals = strings.TrimSpace(s.cfg.Done.Check), s.cfg.Done.CheckTimeoutS, s.cfg.Done.MaxRefusals
	if g := strings.TrimSpace(f.goal); g != "" {
		start.Goal = g
	}
	return nil
}

// runDetached submits task to the project's Node as a headless session and prints its id: the
// session runs on after this process exits. With no Node running, one is started in the
// background (troupe serve, logging to .troupe/serve.log).
func (m *Main) runDetached(f *runFlags, task string) error {
	if f.json {
		return usageErr("--json does not go with --detach: follow the session with troupe attach --json ID")
	}
	s, err := m.resolve(&f.commonFlags)
	if err != nil {
		return err
	}
	start := &messages.StartSession{ID: newSessionID(), Task: task, Yes: f.yes}
	if err := m.sessionStart(s, nil, &f.commonFlags, start); err != nil {
		return err
	}
	info, err := actors.FindNode(s.root, s.cfg.NATS)
	if err != nil {
		if info, err = background.Start(s.root, s.cfg.NATS, f.sandbox, m.Stderr); err != nil {
			var setup *background.SetupError
			if errors.As(err, &setup) {
				return usageErr("%v", err)
			}
			return err
		}
	}
	nc, err := actors.Dial(info.URL, info.Token, "troupe-detach")
	if err != nil {
		return &exitError{Code: exitFailed, Msg: fmt.Sprintf("attach to the troupe node at %s: %v", info.URL, err)}
	}
	client := actors.NewClient(nc, info.NS, info.Node)
	defer client.Close()
	if err := client.StartSession(start); err != nil {
		return usageErr("%v", err)
	}
	fmt.Fprintln(m.Stdout, start.ID)
	fmt.Fprintf(m.Stderr, "troupe: session %s runs on node %s (pid %d); follow it with troupe attach %s or troupe watch\n",
		start.ID, info.Node, info.PID, start.ID)
	return nil
}
