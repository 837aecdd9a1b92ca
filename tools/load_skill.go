package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// SkillSource is the session behind load_skill: it knows the session's skills and activates
// one (a skill with allowed-tools narrows the session's tools while it is active).
type SkillSource interface {
	LoadSkill(ctx context.Context, name string) (*LoadedSkill, error)
}

// LoadedSkill is what load_skill returns to the model.
type LoadedSkill struct {
	Name, Dir, Body string
	Files           []string // the skill folder's other files, relative to Dir
	AllowedTools    []string // nil: the session's tools are unchanged
}

// loadSkill is load_skill: progressive disclosure of a SKILL.md body (docs/DESIGN-NOTES.md
// "Skills").
type loadSkill struct{}

func (loadSkill) Spec() Spec {
	return Spec{
		Name:        "load_skill",
		Description: "Load a skill listed under Skills in the system prompt: returns its instructions and the files in its folder.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"the skill's name, as listed"}},"required":["name"],"additionalProperties":false}`),
		Risk:        RiskRead,
	}
}

func (loadSkill) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	if env.Skills == nil {
		return errorResult("load_skill: this session has no skills")
	}
	var a struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return errorResult(fmt.Sprintf("load_skill: %v", err))
	}
	sk, err := env.Skills.LoadSkill(ctx, strings.TrimSpace(a.Name))
	if err != nil {
		return errorResult(fmt.Sprintf("load_skill: %v", err))
	}
	env.skill = sk
	return Result{Output: SkillText(sk)}
}

// SkillText is what the model reads of a loaded skill: its body, the files of its folder and
// the tools it allows (the /skills command hands it over in the same words).
func SkillText(sk *LoadedSkill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Skill %s (folder %s)\n\n%s", sk.Name, sk.Dir, sk.Body)
	if len(sk.Files) > 0 {
		b.WriteString("\n\nFiles in the skill's folder (read them with read_file when the instructions point at them):")
		for _, f := range sk.Files {
			b.WriteString("\n- " + f)
		}
	}
	if sk.AllowedTools != nil {
		fmt.Fprintf(&b, "\n\nWhile this skill is active your tools are: %s.", strings.Join(sk.AllowedTools, ", "))
	}
	return b.String()
}

// skillAllows refuses a call the active skill's allowed-tools leave out (load_skill itself
// stays allowed, so the model can switch skills). The tool list the model sees does not
// change, which keeps the stable prefix byte-identical.
func (e *Env) skillAllows(tool string) *Result {
	sk := e.skill
	if sk == nil || sk.AllowedTools == nil || tool == "load_skill" || slices.Contains(sk.AllowedTools, tool) {
		return nil
	}
	res := errorResult(fmt.Sprintf("%s is not available while skill %s is active: its tools are %s (load another skill to change them)",
		tool, sk.Name, strings.Join(sk.AllowedTools, ", ")))
	return &res
}

// UseSkill makes sk the active skill, as load_skill does (the user's /skills NAME). Only the
// Env's owner, the tool executor, calls it, between calls.
func (e *Env) UseSkill(sk *LoadedSkill) { e.skill = sk }

// LoadSkillTool is load_skill, registered for sessions that have skills.
func LoadSkillTool() Tool { return loadSkill{} }
