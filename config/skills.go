package config

// Skills (docs/DESIGN-NOTES.md "Skills"): folders holding a SKILL.md whose front matter names the skill
// and says when to use it. Only the names and descriptions go into the prompt; the body and the
// folder's files are loaded on demand (load_skill), so a project can carry many skills at the
// cost of one line each.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Skill is one SKILL.md folder.
type Skill struct {
	Name        string
	Description string
	// AllowedTools narrows the session's tools while the skill is active; nil leaves them.
	AllowedTools []string
	Dir          string // the skill's folder (absolute)
	Source       string // where it was found, for /skills and errors
}

// SkillFile is the file that makes a folder a skill.
const SkillFile = "SKILL.md"

// Skill limits: a description is one prompt line, a body is read into the context whole.
const (
	maxSkillDescription = 1024
	MaxSkillBody        = 32 << 10
	maxSkillName        = 64
)

// SkillDirs are the folders searched for skills, highest precedence first: the project's
// (.troupe, then the folders other harnesses use, so a repository's existing skills work),
// then the user's. A name found twice is taken from the first.
func SkillDirs(projectRoot, userConfigDir string) []string {
	dirs := []string{
		filepath.Join(projectRoot, ".troupe", "skills"),
		filepath.Join(projectRoot, ".agents", "skills"),
		filepath.Join(projectRoot, ".claude", "skills"),
	}
	if userConfigDir != "" {
		dirs = append(dirs, filepath.Join(userConfigDir, "skills"))
	}
	return dirs
}

// LoadSkills reads every skill in dirs. Bad skill files are reported together (each naming its
// file) beside the skills that did load, so one broken skill does not hide the others.
func LoadSkills(dirs []string) ([]Skill, error) {
	var out []Skill
	var errs []error
	seen := map[string]bool{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // no such folder: no skills there
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			path := filepath.Join(dir, e.Name(), SkillFile)
			data, err := os.ReadFile(path)
			if err != nil {
				continue // a folder without SKILL.md is not a skill
			}
			sk, err := ParseSkill(path, data)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if seen[sk.Name] {
				continue
			}
			seen[sk.Name] = true
			out = append(out, sk)
		}
	}
	slices.SortFunc(out, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	return out, errors.Join(errs...)
}

// ParseSkill reads a SKILL.md: front matter with name and description (required) and
// allowed-tools (optional: a list or a comma/space-separated string), then the body.
func ParseSkill(path string, data []byte) (Skill, error) {
	front, _, _, err := splitFrontMatter(data)
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s: %w", path, err)
	}
	var meta struct {
		Name         string    `yaml:"name"`
		Description  string    `yaml:"description"`
		AllowedTools yaml.Node `yaml:"allowed-tools"`
	}
	if err := yaml.Unmarshal(front, &meta); err != nil {
		return Skill{}, fmt.Errorf("skill %s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	sk := Skill{Name: strings.TrimSpace(meta.Name), Description: strings.Join(strings.Fields(meta.Description), " "),
		Dir: filepath.Dir(path), Source: path}
	if sk.Name == "" {
		sk.Name = filepath.Base(sk.Dir)
	}
	switch {
	case len(sk.Name) > maxSkillName || strings.ContainsAny(sk.Name, " /\\\t\n"):
		return Skill{}, fmt.Errorf("skill %s: name %q must be one word of at most %d characters", path, sk.Name, maxSkillName)
	case sk.Description == "":
		return Skill{}, fmt.Errorf("skill %s: description is missing: say in one line when to use the skill", path)
	case len(sk.Description) > maxSkillDescription:
		return Skill{}, fmt.Errorf("skill %s: description is %d characters; keep it under %d (it is sent on every call)", path, len(sk.Description), maxSkillDescription)
	}
	if sk.AllowedTools, err = allowedTools(&meta.AllowedTools); err != nil {
		return Skill{}, fmt.Errorf("skill %s: allowed-tools %w", path, err)
	}
	return sk, nil
}

// allowedTools accepts a YAML list or a comma- or space-separated string (the published
// SKILL.md format uses the latter); an absent key is nil.
func allowedTools(n *yaml.Node) ([]string, error) {
	var raw []string
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.ScalarNode:
		raw = strings.FieldsFunc(n.Value, func(r rune) bool { return r == ',' || r == ' ' })
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, errors.New("must list tool names")
			}
			raw = append(raw, c.Value)
		}
	default:
		return nil, errors.New("must be a list of tool names")
	}
	var out []string
	for _, t := range raw {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Body is the skill's instructions (SKILL.md without its front matter, bounded) and the other
// files of its folder, relative to it, for the model to read when the body points at them.
func (s Skill) Body() (body string, files []string, err error) {
	data, err := os.ReadFile(filepath.Join(s.Dir, SkillFile))
	if err != nil {
		return "", nil, fmt.Errorf("skill %s: %w", s.Name, err)
	}
	_, body, _, err = splitFrontMatter(data)
	if err != nil {
		return "", nil, fmt.Errorf("skill %s: %w", s.Name, err)
	}
	body = strings.TrimSpace(body)
	if len(body) > MaxSkillBody {
		body = body[:MaxSkillBody] + "\n[… the rest of SKILL.md is cut; read it with read_file]"
	}
	err = filepath.WalkDir(s.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || len(files) >= 200 {
			return nil
		}
		if rel, rerr := filepath.Rel(s.Dir, p); rerr == nil && rel != SkillFile {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	return body, files, err
}

// SkillIndex is the prompt's list of skills: one line each, name and description.
func SkillIndex(skills []Skill) string {
	if len(skills) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Skills (load one with load_skill when the task matches its description):")
	for _, s := range skills {
		fmt.Fprintf(&b, "\n- %s: %s", s.Name, s.Description)
	}
	return b.String()
}
