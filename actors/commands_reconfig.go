package actors

import (
	"errors"
	"fmt"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/nearest"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// /model and /prompt switch what the next turns use: the Node rebuilds the setup (provider,
// tools, stable prefix) off the actor, and the session swaps it in while it is idle. The log,
// the goal and the permission gate stay; the stable prefix is the mode's, byte for byte.

// promptModeList is the prompt modes there are, read off the actor.
type promptModeList struct {
	modes []config.PromptMode
	err   error
}

// promptModes lists the built-in and custom prompt modes of the Node's project and user.
func (n *Node) promptModes() ([]config.PromptMode, error) {
	return config.LoadPromptModes(config.PromptModeDirs(n.Root, n.opts.UserConfigDir)...)
}

// promptModeName is the session's prompt mode: the one it was started (or switched) with, or
// on a resume without one, the one it had.
func (s *session) promptModeName() string {
	switch {
	case s.start.PromptMode != "":
		return s.start.PromptMode
	case s.meta != nil && s.meta.PromptMode != "":
		return s.meta.PromptMode
	}
	return config.DefaultPromptMode
}

// promptModesReport is /prompt without a name: the current mode and the ones there are.
func promptModesReport(modes []config.PromptMode, current string, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "prompt mode %s (/prompt NAME switches for the next turn):\n", current)
	for _, m := range modes {
		mark := " "
		if m.Name == current {
			mark = "*"
		}
		tools := ""
		if m.Tools != nil {
			tools = " [tools: " + strings.Join(m.Tools, ", ") + "]"
		}
		fmt.Fprintf(&b, " %s %-16s %s%s\n", mark, m.Name, m.Description, tools)
	}
	if err != nil {
		fmt.Fprintf(&b, "some custom modes did not load: %v\n", err)
	}
	return strings.TrimRight(b.String(), "\n")
}

// unknownPromptMode says a mode does not exist and names the nearest ones.
func unknownPromptMode(name string, modes []config.PromptMode) string {
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = m.Name
	}
	msg := fmt.Sprintf("no prompt mode %q", name)
	if near := nearest.Names(name, names, 3); len(near) > 0 {
		msg += " — did you mean " + strings.Join(near, ", ") + "?"
	}
	return msg + " (the modes are " + strings.Join(names, ", ") + ")"
}

// useModel hands the compactor the model /model switched to.
type useModel struct {
	provider  llm.Provider
	modelName string
}

// reconfigured is a setup built off the actor for st, or why it could not be.
type reconfigured struct {
	setup   *SessionSetup
	refusal string // a plain line for the user (an unknown mode)
	err     error
}

// reconfigure builds the setup for st off the actor and applies it on the actor; the answer
// goes to whoever sent the command.
func (s *session) reconfigure(ctx actor.Context, st *messages.StartSession, by string) {
	setupFor, modesFor := s.deps.Setup, s.deps.PromptModes
	offActor(ctx, commandDiskTimeout, func() reconfigured {
		if by == "/prompt" && modesFor != nil {
			modes, _ := modesFor() // a broken custom file is reported by /prompt's list
			if _, err := config.FindPromptMode(modes, st.PromptMode); err != nil {
				return reconfigured{refusal: unknownPromptMode(st.PromptMode, modes)}
			}
		}
		setup, err := setupFor(st)
		return reconfigured{setup: setup, err: err}
	}, func(r reconfigured, err error) {
		s.respond(ctx, commandOutput(s.applyReconfigured(ctx, st, by, r, errors.Join(err, r.err))))
	})
}

// applyReconfigured swaps the new setup in, or says in one line why not.
func (s *session) applyReconfigured(ctx actor.Context, st *messages.StartSession, by string, r reconfigured, err error) string {
	switch {
	case r.refusal != "":
		return r.refusal
	case err != nil && by == "/model":
		return fmt.Sprintf("/model %s: %v (the model stays %s)", st.Model, err, s.deps.Model)
	case err != nil:
		return fmt.Sprintf("%s: %v", by, err)
	case s.phase != phaseIdle:
		return by + ": a turn started meanwhile; nothing changed (try again when it ends)"
	}
	old := s.deps
	s.deps.Provider, s.deps.Model, s.deps.ModelName = r.setup.Provider, r.setup.Model, r.setup.ModelName
	s.deps.Tools, s.deps.System, s.deps.Narrowed = r.setup.Tools, r.setup.System, r.setup.Narrowed
	if err := s.checkWindow(); err != nil {
		s.deps = old
		_ = s.checkWindow()
		return fmt.Sprintf("%s: %v (nothing changed)", by, err)
	}
	s.budget.acct.Reset() // the last provider count was for the old prefix

	// From plan to code, say: spawn_agent is back, and with it the delegation.
	delegates := false
	if s.kids.delegation == nil && r.setup.Delegation != nil {
		d := *r.setup.Delegation
		d.Limits = d.Limits.withDefaults()
		s.kids.delegation = &d
		s.deps.Delegation = r.setup.Delegation
		delegates = true
	}
	// The executor puts its gate last in the new registry (mode and session allowlist carry
	// over) and, with delegates, links the agent tools to this session.
	ctx.Send(s.links.toolexec, &useRegistry{registry: r.setup.Tools, delegates: delegates})
	if s.links.compactor != nil {
		ctx.Send(s.links.compactor, &useModel{provider: s.deps.Provider, modelName: s.deps.ModelName})
	}
	s.start.Model, s.start.PromptMode = st.Model, st.PromptMode
	if s.meta != nil && (s.meta.Model != st.Model || s.meta.PromptMode != st.PromptMode) {
		s.meta.Model, s.meta.PromptMode = st.Model, st.PromptMode // troupe resume takes them from here
		if err := s.putMeta(); err != nil {
			s.deps.Log.Warn("record the model and prompt mode", "session", s.start.ID, "err", err)
		}
	}
	p := messages.SessionConfigEvent.Of(&messages.ConfigData{Model: s.deps.Model, PromptMode: s.promptModeName(), By: by})
	s.emit(p)
	s.audit(p.EventType(), "", "", p.Data())
	if by == "/model" {
		return fmt.Sprintf("model %s for the next turns (context %d tokens)", s.deps.Model, s.window())
	}
	return fmt.Sprintf("prompt mode %s for the next turn (%d tools)", s.promptModeName(), len(s.toolSpecs()))
}
