package config

// Roles for subagents (docs/DESIGN-NOTES.md "Subagents"): the five built-ins, and custom roles a
// project defines in .troupe/agents/<name>.md as YAML front matter plus a prompt body.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/internal/nearest"

	"go.yaml.in/yaml/v4"
)

// Role is what a subagent is asked to be: its tools, model, mode, budget and prompt. The caller
// that spawns the child applies it; a role never grants more than the parent has.
type Role struct {
	Name        string
	Description string   // one line the parent model reads when it picks a role
	Tools       []string // tool names the role may use; nil means all of the parent's tools (never empty)
	Model       string   // "" = the parent's model; else provider/model (often a cheaper one)
	Mode        string   // "" = the parent's; else plan|ask|auto-edit|yolo — the caller takes the stricter (StricterMode)
	MaxTurns    int      // 0 = the default budget
	Prompt      string   // the role's system prompt, appended to the base prompt by the caller

	// Verdict says the final answer must end with a line "VERDICT: pass" or "VERDICT: fail".
	Verdict bool
	// PlanSafeBash allows bash only in its plan-safe (read-only) form; the caller enforces it.
	PlanSafeBash bool
	// Placement pins where the role's children run (local, workers, auto); "" follows
	// [agents] placement.
	Placement string

	Source string // "builtin", or the path of the role's file
}

// Where subagents run ([agents] placement, docs/CONFIG.md): on the parent's Node, on workers
// consuming the project's task queue, or chosen per child (read-only children stay local while
// local slots are free; writing or long ones go to workers).
const (
	PlacementLocal   = "local"
	PlacementWorkers = "workers"
	PlacementAuto    = "auto"
)

// Placements returns the placement choices.
func Placements() []string { return []string{PlacementLocal, PlacementWorkers, PlacementAuto} }

// SourceBuiltin is the Source of the built-in roles.
const SourceBuiltin = "builtin"

// AgentsDir is where a project keeps its custom roles, relative to the project root.
const AgentsDir = ".troupe/agents"

// readOnlyTools are the tools that only look: the read-only roles get exactly these.
var readOnlyTools = []string{"read_file", "list_dir", "glob", "grep", "read_artifact"}

// BuiltinRoles returns the built-in roles, freshly allocated (callers may modify them). Their
// prompts are short on purpose: a budget model pays for every byte on every turn.
func BuiltinRoles() []Role {
	ro := func() []string { return slices.Clone(readOnlyTools) }
	return []Role{
		{
			Name:        "explorer",
			Description: "Read-only: explores the codebase and reports findings with file:line references.",
			Tools:       ro(),
			Mode:        "plan",
			Source:      SourceBuiltin,
			Prompt: `You are an explorer subagent. Answer the task by investigating the code; change nothing.
Search broadly first (glob, grep), then read only the relevant parts. Stop once you can answer.
Final answer:
## Answer
a direct answer in a few sentences
## Findings
- one fact per line, each with its path:line
## Open questions
what you could not confirm, or "none"`,
		},
		{
			Name:        "planner",
			Description: "Read-only: studies the code and returns a numbered implementation plan.",
			Tools:       ro(),
			Mode:        "plan",
			Source:      SourceBuiltin,
			Prompt: `You are a planner subagent. Read the code you need and plan the change; change nothing.
Make each step small, concrete and checkable: name the files and functions it touches.
Final answer:
## Plan
1. what to do — path:line — how to check it
2. …
## Risks
- what could break, and how the plan guards against it
## Verification
the commands that show the whole change works`,
		},
		{
			Name:         "verifier",
			Description:  "Checks a claim or change independently (read-only tools, plan-safe bash); ends with VERDICT: pass or fail.",
			Tools:        append(ro(), "bash"),
			Verdict:      true,
			PlanSafeBash: true,
			Source:       SourceBuiltin,
			Prompt: `You are a verifier subagent. Check the claim in the task yourself; fix nothing.
Read the code and run read-only commands (tests, build, vet, git diff); commands that write are refused.
Judge only by what you observed: missing or inconclusive evidence is a fail.
Final answer:
## Evidence
- ` + "`command`" + ` → exit code and the key output line
- path:line → what it shows
## Reason
one or two sentences
Then, as the very last line, exactly one of:
VERDICT: pass
VERDICT: fail`,
		},
		{
			Name:        "worker",
			Description: "Makes a change with the parent's tools and reports the files changed and how it verified them.",
			Source:      SourceBuiltin,
			Prompt: `You are a worker subagent. Make the change the task asks for, and only that, in the existing style.
Read before you edit. Verify the change (build, tests, or a run) before you finish; if you cannot, say why.
Final answer:
## Changed
- path — what changed
## Verified
- ` + "`command`" + ` → outcome
## Notes
anything left undone, assumptions, follow-ups, or "none"`,
		},
		{
			Name:        "reviewer",
			Description: "Read-only: reviews code or a change and returns findings with file:line and severity.",
			Tools:       ro(),
			Mode:        "plan",
			Source:      SourceBuiltin,
			Prompt: `You are a reviewer subagent. Review the code or change named in the task; change nothing.
Look for bugs, unhandled edge cases, broken contracts, security and concurrency problems, missing tests.
Skip style nits unless asked.
Final answer, most severe first:
## Findings
- [high|medium|low] path:line — the problem, why it matters, the fix
## Verdict
one line: ready to merge, or what must change first
If you find nothing, say so and list what you checked.`,
		},
	}
}

// LoadRoles returns the built-in roles, then the project's custom roles from
// <projectRoot>/.troupe/agents/*.md sorted by name. A custom role with a built-in's name
// replaces it entirely, in the built-in's place. A missing directory means no custom roles.
//
// Every bad file is reported (joined into one error, each naming its file); the roles that did
// load are returned alongside, so a caller may report the error and still go on with them.
func LoadRoles(projectRoot string) ([]Role, error) {
	roles := BuiltinRoles()
	dir := filepath.Join(projectRoot, AgentsDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return roles, nil
	}
	if err != nil {
		return roles, fmt.Errorf("roles: %w", err)
	}
	var errs []error
	for _, e := range entries { // ReadDir sorts by file name
		name := e.Name()
		// Hidden files are editor locks and backups (.#role.md), not roles.
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		if e.IsDir() {
			errs = append(errs, fmt.Errorf("%s: is a directory; a role is a file", path))
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("role file: %w", err))
			continue
		}
		r, err := ParseRole(strings.TrimSuffix(name, ".md"), path, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if i := slices.IndexFunc(roles, func(b Role) bool { return b.Name == r.Name }); i >= 0 {
			roles[i] = r
		} else {
			roles = append(roles, r)
		}
	}
	return roles, errors.Join(errs...)
}

// FindRole returns the role with the given name; an unknown name is an error that lists the
// available ones (and the closest, when the name looks like a typo).
func FindRole(roles []Role, name string) (Role, error) {
	names := make([]string, 0, len(roles))
	for _, r := range roles {
		if r.Name == name {
			return r, nil
		}
		names = append(names, r.Name)
	}
	hint := ""
	if near := nearest.Best(name, names, max(1, len(name)/3)); near != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", near)
	}
	return Role{}, fmt.Errorf("unknown agent type %q%s; available: %s", name, hint, strings.Join(names, ", "))
}

// StricterMode returns the more cautious of two permission modes; "" stands for "inherit" and
// yields the other. It is how a role's mode meets its parent's: a child never exceeds the parent.
func StricterMode(a, b string) string {
	ia, ib := slices.Index(Modes(), a), slices.Index(Modes(), b)
	switch {
	case a == "":
		return b
	case b == "":
		return a
	case ia < 0 || ib < 0:
		return "plan" // an unknown mode is a bug upstream: fail closed
	case ia <= ib:
		return a
	}
	return b
}

// roleKeys are the front-matter keys a role file may set, in the order the error lists them.
var roleKeys = []string{"description", "tools", "model", "mode", "max_turns", "placement"}

var (
	roleNameRE = lazyre.New(`^[a-z0-9_-]+$`)
	toolNameRE = lazyre.New(`^[A-Za-z0-9_.-]+$`) // built-ins and mcp__server__tool
	yamlLineRE = lazyre.New(`line (\d+)`)
)

// maxRoleName keeps names usable as task labels and file names.
const maxRoleName = 64

// ParseRole parses a role file's content; name is the file name without .md and path names
// the file in errors (and becomes the role's Source).
func ParseRole(name, path string, data []byte) (Role, error) {
	bad := func(format string, args ...any) (Role, error) {
		return Role{}, fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
	if !roleNameRE.MatchString(name) || len(name) > maxRoleName {
		return bad("role name %q (from the file name) must be 1-%d characters of a-z, 0-9, _ and -", name, maxRoleName)
	}
	front, body, offset, err := splitFrontMatter(data)
	if err != nil {
		return bad("%v", err)
	}
	r := Role{Name: name, Source: path, Prompt: strings.TrimSpace(body)}

	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return bad("front matter: %s", shiftYAMLLines(err.Error(), offset))
	}
	if len(doc.Content) == 0 { // empty front matter: every setting inherits
		return r, nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return bad("line %d: front matter must be key: value pairs (%s)", m.Line+offset, strings.Join(roleKeys, ", "))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		line := k.Line + offset
		if seen[k.Value] {
			return bad("line %d: %s is set twice", line, k.Value)
		}
		seen[k.Value] = true
		switch k.Value {
		case "description":
			s, err := scalarString(v)
			if err != nil {
				return bad("line %d: description %v", line, err)
			}
			r.Description = strings.Join(strings.Fields(s), " ") // one line, for listings
		case "tools":
			tools, err := toolList(v)
			if err != nil {
				return bad("line %d: tools %v", line, err)
			}
			r.Tools = tools
		case "model":
			s, err := scalarString(v)
			if err != nil {
				return bad("line %d: model %v", line, err)
			}
			if err := checkModel(s); err != nil {
				return bad("line %d: %v", line, err)
			}
			r.Model = s
		case "mode":
			s, err := scalarString(v)
			if err != nil {
				return bad("line %d: mode %v", line, err)
			}
			if s != "" && !slices.Contains(Modes(), s) {
				return bad("line %d: mode %q is not a mode; want one of %s", line, s, strings.Join(Modes(), ", "))
			}
			r.Mode = s
		case "max_turns":
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil {
				return bad("line %d: max_turns must be a whole number, not %q", line, v.Value)
			}
			if n < 0 {
				return bad("line %d: max_turns is %d; it must be 0 (the default budget) or more", line, n)
			}
			r.MaxTurns = n
		case "placement":
			s, err := scalarString(v)
			if err != nil {
				return bad("line %d: placement %v", line, err)
			}
			if s != "" && !slices.Contains(Placements(), s) {
				return bad("line %d: placement %q is not a placement; want one of %s", line, s, strings.Join(Placements(), ", "))
			}
			r.Placement = s
		default:
			hint := ""
			if near := nearest.Best(k.Value, roleKeys, max(1, len(k.Value)/3)); near != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", near)
			}
			return bad("line %d: unknown key %q%s; known keys: %s", line, k.Value, hint, strings.Join(roleKeys, ", "))
		}
	}
	return r, nil
}

// checkModel checks the shape of a role's model; whether the provider is usable is checked when
// the child starts, where the keys are.
func checkModel(s string) error {
	if s == "" || strings.HasPrefix(s, "scripted:") {
		return nil
	}
	if p, m, ok := strings.Cut(s, "/"); !ok || p == "" || m == "" || strings.ContainsAny(s, " \t") {
		return fmt.Errorf("model %q must be provider/model (e.g. openai/gpt-4o-mini), or left out for the parent's model", s)
	}
	return nil
}
