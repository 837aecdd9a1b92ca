package actors

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// skills are the skills a new session may load: the project's (.troupe, .agents, .claude) and
// the user's. A broken SKILL.md is skipped and the others still load; problems says why in
// plain words, for the session's clients (StatusReply.Warnings) and /skills. The node's
// debug log records each problem once, not at every session's start.
func (n *Node) skills() (skills []config.Skill, problems []string) {
	skills, err := config.LoadSkills(config.SkillDirs(n.Root, n.opts.UserConfigDir))
	problems = skillProblems(err)
	for _, p := range problems {
		// Debug, not Warn: the node's log may be the chat's own stderr, and the clients say it
		// in plain words (StatusReply.Warnings).
		if _, seen := n.warned.LoadOrStore(p, true); !seen && n.opts.Log != nil {
			n.opts.Log.Debug(p)
		}
	}
	return skills, problems
}

// skillProblems turns LoadSkills' joined errors ("skill PATH: reason") into one plain line
// each that says what was skipped and how to fix it.
func skillProblems(err error) []string {
	if err == nil {
		return nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		what := strings.TrimPrefix(e.Error(), "skill ")
		out = append(out, "skipped a broken skill, "+what)
	}
	return out
}

// promptMode finds a session's prompt mode among the built-ins and the project's and user's
// custom ones; "" and "code" are the default (nil).
func (n *Node) promptMode(name string) (*config.PromptMode, error) {
	if name == "" || name == config.DefaultPromptMode {
		return nil, nil
	}
	modes, err := config.LoadPromptModes(config.PromptModeDirs(n.Root, n.opts.UserConfigDir)...)
	if err != nil && n.opts.Log != nil {
		n.opts.Log.Warn("skipping prompt modes that do not load", "err", err)
	}
	pm, err := config.FindPromptMode(modes, name)
	if err != nil {
		return nil, err
	}
	return &pm, nil
}

// skillSet is a session's skills as load_skill sees them. It holds values read at the
// session's start and is never written, so the executor may read it freely.
type skillSet []config.Skill

func (s skillSet) LoadSkill(ctx context.Context, name string) (*tools.LoadedSkill, error) {
	i := slices.IndexFunc(s, func(sk config.Skill) bool { return sk.Name == name })
	if i < 0 {
		names := make([]string, len(s))
		for j, sk := range s {
			names[j] = sk.Name
		}
		return nil, fmt.Errorf("no skill %q: the skills are %s", name, strings.Join(names, ", "))
	}
	body, files, err := s[i].Body()
	if err != nil {
		return nil, err
	}
	return &tools.LoadedSkill{Name: s[i].Name, Dir: s[i].Dir, Body: body, Files: files, AllowedTools: s[i].AllowedTools}, nil
}

// skillNames are the skills' names, in their order.
func skillNames(skills []config.Skill) []string {
	names := make([]string, len(skills))
	for i, sk := range skills {
		names[i] = sk.Name
	}
	return names
}

// formatSkillStatus is /status's skills line and the warnings of the session's start.
func formatSkillStatus(st *messages.StatusReply) string {
	line := "\nskills      none (SKILL.md folders in .agents/skills, .claude/skills, .troupe/skills or ~/.config/troupe/skills)"
	if len(st.Skills) > 0 {
		line = fmt.Sprintf("\nskills      %d: %s (/skills NAME loads one)", len(st.Skills), strings.Join(st.Skills, ", "))
	}
	for _, w := range st.Warnings {
		line += "\nwarning     " + w
	}
	return line
}
