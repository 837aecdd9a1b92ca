package actors

import (
	"fmt"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// SessionSetup is what a session's model and prompt mode decide: the provider, the tools and
// the stable prefix. The Node builds it at the start and again when /model or /prompt switches
// one of them, through the same code, so a mode's prefix is byte-identical however the session
// came to be in it.
type SessionSetup struct {
	Provider llm.Provider
	// Model is the provider/model string stamped on messages; ModelName is what the provider
	// is asked for.
	Model, ModelName string
	Tools            *tools.Registry // without the session's permission check (its gate adds it)
	System           string
	Skills           []config.Skill
	SkillProblems    []string             // the broken SKILL.md files skipped, in plain words
	Instructions     *config.Instructions // the instruction files of the prefix
	// Narrowed are the Node's tools this session does not have, and what took them away.
	Narrowed []NarrowedTool
	// Delegation lets the session run subagents; nil when its tools have no spawn_agent.
	Delegation *Delegation
}

// NarrowedTool is a tool a session does not have: By says what narrowed it away
// ("role reviewer", "prompt mode plan").
type NarrowedTool struct {
	Name, By string
}

// sessionSetup builds a session's setup from its start: the model (on the start's endpoint),
// the prompt mode, the skills and the tools they leave; memory gives the memory block read at
// the session's start (frozenMemory). It is asked last, for the system prompt: on a node that
// has just started, the project memory's read waits for the store's open (store.Start), and
// everything before it is built meanwhile.
func (n *Node) sessionSetup(start *messages.StartSession, memory func() string) (*SessionSetup, error) {
	if n.opts.Provider == nil {
		return nil, fmt.Errorf("this node has no provider configured")
	}
	provider, modelName, err := n.opts.Provider(start.Model, start.BaseURL, providerGetenv(start))
	if err != nil {
		return nil, err
	}
	skills, skillProblems := n.skills()
	cwd, promptMode := n.sessionPrefixOf(start)
	pm, err := n.promptMode(promptMode)
	if err != nil {
		return nil, err
	}
	reg, narrowed, err := n.sessionTools(start, len(skills) > 0, pm)
	if err != nil {
		return nil, err
	}
	reg.SetOverflow(tools.ArtifactOverflow(n.store))
	workspace := start.Workspace
	if workspace == "" {
		workspace = n.Root
	}
	instr := SessionInstructions(workspace, cwd, n.opts.UserConfigDir)
	system := withQuirkHint(SystemPrompt(PromptParts{Root: workspace, Mode: string(start.Mode), RolePrompt: start.RolePrompt,
		UserDir: n.opts.UserConfigDir, Skills: skills, PromptMode: pm, Instructions: instr, Memory: memory()}), modelName, !start.NoRepair)
	return &SessionSetup{Provider: provider, Model: modelStamp(start.Model), ModelName: modelName, Tools: reg,
		System: system, Skills: skills, SkillProblems: skillProblems, Instructions: instr, Narrowed: narrowed, Delegation: n.delegation(reg)}, nil
}

// narrowTools keeps the tools a subagent's role (roleTools, nil: all) and the prompt mode
// leave, and says which the others lost to what. A prompt mode only narrows; load_skill and
// the goal tools stay, so a mode never takes away the session's own bookkeeping.
func narrowTools(all []tools.Tool, role string, roleTools []string, pm *config.PromptMode) ([]tools.Tool, []NarrowedTool) {
	var kept []tools.Tool
	var away []NarrowedTool
	for _, t := range all {
		name := t.Spec().Name
		switch {
		case roleTools != nil && !slices.Contains(roleTools, name):
			by := "the subagent's tool list"
			if role != "" {
				by = "role " + role
			}
			away = append(away, NarrowedTool{Name: name, By: by})
		case pm != nil && pm.Tools != nil && !slices.Contains(pm.Tools, name) && name != "load_skill" && !strings.HasSuffix(name, "_goal"):
			away = append(away, NarrowedTool{Name: name, By: "prompt mode " + pm.Name})
		default:
			kept = append(kept, t)
		}
	}
	return kept, away
}

// modelStamp is the model name stamped on assistant messages: provider/model, or "scripted"
// for a script (its path is not a model).
func modelStamp(model string) string {
	if strings.HasPrefix(model, "scripted:") {
		return "scripted"
	}
	return model
}
