package actors

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/tools"
)

// skills are the skills a new session may load: the project's (.troupe, .agents, .claude) and
// the user's. A broken SKILL.md is logged and skipped; the others still load.
func (n *Node) skills() []config.Skill {
	skills, err := config.LoadSkills(config.SkillDirs(n.Root, n.opts.UserConfigDir))
	if err != nil && n.opts.Log != nil {
		n.opts.Log.Warn("skipping skills that do not load", "err", err)
	}
	return skills
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
