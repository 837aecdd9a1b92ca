package main

import (
	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/background"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/messages"
)

// sessionStart fills start from the settings and flags (setup.Start): the one place that
// turns configuration into what run, resume, chat, loop and a detached run send the Node.
func (m *Main) sessionStart(s *settings, client *actors.Client, f *commonFlags, start *messages.StartSession) error {
	return setup.Start(s.cfg, s.root, m.Getenv, client, setup.StartFlags{Model: f.model, BaseURL: f.baseURL,
		PromptMode: f.promptMode, Goal: f.goal, MaxTurns: f.maxTurns, NoRepair: f.noRepair}, start)
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
	// No one is at this terminal, but someone can answer later (troupe approvals, troupe approve,
	// troupe attach): a call that needs approval waits for it instead of being denied.
	start.AskUser = !f.yes
	return background.Submit(background.Options{Root: s.root, NATS: s.cfg.NATS, NATSCreds: s.cfg.Bus.Creds, Creds: nodelink.BusCredentials(s.cfg), Sandbox: f.sandbox, Idle: background.IdleFrom(m.Getenv)},
		m.Stdout, m.Stderr, start)
}
