package actors

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/nearest"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
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

// promptModeOf is a session's prompt mode: the one it was started (or switched) with, or on
// a resume without one, the one it had.
func promptModeOf(asked string, meta *store.SessionMeta) string {
	switch {
	case asked != "":
		return asked
	case meta != nil && meta.PromptMode != "":
		return meta.PromptMode
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

// reconfigure builds the setup for model and prompt mode off the actor and applies it back on
// it; the answer goes to whoever sent the command. /prompt first checks that the mode exists.
func reconfigure(h commandHost, model, promptMode, by string) *messages.InputAck {
	build, modesFor := h.SetupFor(model, promptMode), h.PromptModes()
	apply := func(setup *SessionSetup, err error) string {
		return applyReconfigured(h, model, promptMode, by, setup, err)
	}
	h.Later(commandDiskTimeout, func() func() string {
		if by == "/prompt" && modesFor != nil {
			modes, _ := modesFor() // a broken custom file is reported by /prompt's list
			if _, err := config.FindPromptMode(modes, promptMode); err != nil {
				refusal := unknownPromptMode(promptMode, modes)
				return func() string { return refusal }
			}
		}
		setup, err := build()
		return func() string { return apply(setup, err) }
	}, func(err error) string { return apply(nil, err) })
	return nil
}

// applyReconfigured swaps the new setup in, or says in one line why not.
func applyReconfigured(h commandHost, model, promptMode, by string, setup *SessionSetup, err error) string {
	switch {
	case err != nil && by == "/model":
		return fmt.Sprintf("/model %s: %v (the model stays %s)", model, err, h.Snapshot().Model.Model)
	case err != nil:
		return fmt.Sprintf("%s: %v", by, err)
	case !h.Idle():
		return by + ": a turn started meanwhile; nothing changed (try again when it ends)"
	}
	if err := h.ApplySetup(setup, model, promptMode, by); err != nil {
		return fmt.Sprintf("%s: %v (nothing changed)", by, err)
	}
	now := h.Snapshot()
	if by == "/model" {
		return fmt.Sprintf("model %s for the next turns (context %d tokens)", now.Model.Model, now.Model.Window)
	}
	return fmt.Sprintf("prompt mode %s for the next turn (%d tools)", now.Model.PromptMode, len(now.Tools))
}
