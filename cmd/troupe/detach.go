package main

import (
	"errors"
	"fmt"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/background"
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
