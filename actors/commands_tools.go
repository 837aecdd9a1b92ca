package actors

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// The session's answers about what it may do: /tools, /permissions and /skills.

// commandDiskTimeout bounds a command's work off the actor (reading SKILL.md or prompt files).
const commandDiskTimeout = 8 * time.Second

// useSkill tells the tool executor (the owner of the Env) that /skills NAME activated a skill,
// so its allowed-tools bound the next calls as if load_skill had run.
type useSkill struct{ skill *tools.LoadedSkill }

// useRegistry hands the tool executor the registry /prompt or /model built; it is sent only
// while the session is idle, so no call is running.
type useRegistry struct {
	registry  *tools.Registry
	delegates bool // the agent tools are new in it: the executor links them to the session
}

// skillNote opens the note /skills NAME leaves for the model; activeSkill finds it again.
const skillNote = "The user loaded a skill with /skills. "

// toolsReport is /tools: the tools this session has, one line each, the ones narrowed away and
// by what, and the active skill's bound.
func toolsReport(specs []llm.ToolSpec, narrowed []NarrowedTool, skill *config.Skill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tools (%d):\n", len(specs))
	for _, sp := range specs {
		fmt.Fprintf(&b, "  %-14s %s\n", sp.Name, oneLineOf(sp.Description, 90))
	}
	if len(narrowed) > 0 {
		b.WriteString("narrowed away:\n")
		for _, n := range narrowed {
			fmt.Fprintf(&b, "  %-14s by %s\n", n.Name, n.By)
		}
	}
	if skill != nil && skill.AllowedTools != nil {
		fmt.Fprintf(&b, "skill %s is active: only %s may run (load another skill to change it)\n",
			skill.Name, strings.Join(skill.AllowedTools, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// oneLineOf is the first sentence of a description, within n bytes.
func oneLineOf(desc string, n int) string {
	line := firstLine(desc)
	if i := strings.Index(line, ". "); i > 0 {
		line = line[:i+1]
	}
	if len(line) <= n {
		return line
	}
	cut := n
	for cut > 0 && !isRuneStart(line[cut]) {
		cut--
	}
	return line[:cut] + "…"
}

// activeSkill names the skill loaded last, by load_skill or /skills, from the items; "" if none.
func activeSkill(items []projection.Item) string {
	for i := len(items) - 1; i >= 0; i-- {
		m := items[i].Msg
		if items[i].Boundary != nil {
			continue
		}
		text := ""
		switch {
		case m.Role == llm.RoleTool && m.ToolName == "load_skill" && !m.IsError:
			text = m.Content
		case m.Role == llm.RoleUser && strings.HasPrefix(m.Content, projection.NotePrefix+skillNote):
			text = strings.TrimPrefix(m.Content, projection.NotePrefix+skillNote)
		default:
			continue
		}
		if name, ok := strings.CutPrefix(text, "Skill "); ok {
			name, _, _ = strings.Cut(name, " ")
			return name
		}
	}
	return ""
}

// toolsView is /tools: the active skill's bound is looked up among the session's skills.
func toolsView(snap commandSnapshot, _ string) string {
	var skill *config.Skill
	if i := slices.IndexFunc(snap.Skills, func(sk config.Skill) bool { return sk.Name == snap.ActiveSkill }); snap.ActiveSkill != "" && i >= 0 {
		skill = &snap.Skills[i]
	}
	return toolsReport(snap.Tools, snap.Narrowed, skill)
}

// permissionsReport is /permissions: the mode, the rules in force, the session allowlist,
// the protected paths and the sandbox.
func permissionsReport(mode messages.Mode, allow, ask, deny, session []string, sandbox string) string {
	list := func(l []string) string {
		if len(l) == 0 {
			return "none"
		}
		return strings.Join(l, ", ")
	}
	return fmt.Sprintf("mode        %s (switch with /mode plan|ask|auto-edit|yolo)\n"+
		"allow       %s\nask         %s\ndeny        %s\nthis session %s (allowed for the session from an approval)\n"+
		"protected   .git/, .troupe/, troupe.toml, .gitmodules, .envrc: writing one always asks, except in yolo\n"+
		"sandbox     %s\nrules come from troupe.toml [permissions] and ~/.config/troupe; deny wins, then ask, then allow",
		mode, list(allow), list(ask), list(deny), list(session), sandbox)
}

// permissionsView is /permissions.
func permissionsView(snap commandSnapshot, _ string) string {
	sandbox := "off: commands run unconfined (set [sandbox] in troupe.toml or --sandbox to confine them)"
	if snap.Sandbox != nil {
		sandbox = "on"
		if d, ok := snap.Sandbox.(interface{ Describe() string }); ok {
			sandbox = d.Describe()
		}
	}
	p := snap.Permissions
	return permissionsReport(p.Mode, p.Allow, p.Ask, p.Deny, p.Session, sandbox)
}

// runMode is /mode: the permission mode, or a switch of it.
func runMode(h commandHost, arg string) *messages.InputAck {
	if arg == "" {
		return commandOutput(fmt.Sprintf("mode %s (switch with /mode plan|ask|auto-edit|yolo)", h.Snapshot().Permissions.Mode))
	}
	mode := messages.Mode(strings.ToLower(arg))
	if err := h.SwitchMode(mode, "/mode"); err != nil {
		return commandOutput(err.Error())
	}
	return commandOutput("mode " + string(mode))
}

// skillsReport lists the skills: name, description and where each was found.
func skillsReport(skills []config.Skill, active string) string {
	if len(skills) == 0 {
		return "no skills: put SKILL.md folders in .agents/skills, .claude/skills, .troupe/skills or ~/.config/troupe/skills"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "skills (%d; /skills NAME loads one):\n", len(skills))
	for _, sk := range skills {
		mark := " "
		if sk.Name == active {
			mark = "*"
		}
		fmt.Fprintf(&b, " %s %-16s %s\n     %s\n", mark, sk.Name, oneLineOf(sk.Description, 90), sk.Source)
	}
	return strings.TrimRight(b.String(), "\n")
}

// skillsView is /skills without a name: the skills, then the broken ones skipped.
func skillsView(snap commandSnapshot) string {
	out := skillsReport(snap.Skills, snap.ActiveSkill)
	for _, p := range snap.SkillProblems {
		out += "\nwarning: " + p
	}
	return out
}

// runSkills is /skills [NAME]. Loading reads the SKILL.md off the actor; the body goes into
// the context as a note for the next turn and the executor applies its allowed-tools.
func runSkills(h commandHost, arg string) *messages.InputAck {
	snap := h.Snapshot()
	name := strings.TrimSpace(arg)
	if name == "" {
		return commandOutput(skillsView(snap))
	}
	set := skillSet(snap.Skills)
	if !slices.ContainsFunc(set, func(sk config.Skill) bool { return sk.Name == name }) {
		return commandOutput(unknownSkill(name, set))
	}
	h.Later(commandDiskTimeout, func() func() string {
		sk, err := set.LoadSkill(context.Background(), name)
		return func() string { return skillLoaded(h, sk, err) }
	}, func(err error) string { return skillLoaded(h, nil, err) })
	return nil
}

// unknownSkill says a skill does not exist and names the ones there are.
func unknownSkill(name string, set skillSet) string {
	if len(set) == 0 {
		return skillsReport(nil, "")
	}
	names := make([]string, len(set))
	for i, sk := range set {
		names[i] = sk.Name
	}
	return fmt.Sprintf("no skill %q: the skills are %s", name, strings.Join(names, ", "))
}

// skillLoaded finishes /skills NAME on the actor.
func skillLoaded(h commandHost, sk *tools.LoadedSkill, err error) string {
	if err != nil {
		return fmt.Sprintf("/skills: %v", err)
	}
	if !h.Idle() {
		return "/skills: a turn started meanwhile; load the skill again when it ends"
	}
	if err := h.UseSkill(sk); err != nil {
		return fmt.Sprintf("/skills: record the skill: %v", err)
	}
	msg := fmt.Sprintf("skill %s loaded: its instructions reach the model with your next message", sk.Name)
	if sk.AllowedTools != nil {
		msg += "; tools while it is active: " + strings.Join(sk.AllowedTools, ", ")
	}
	return msg
}
