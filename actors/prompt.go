package actors

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/troupe-dev/troupe/config"
)

// basePrompt is troupe's system prompt. It is short on purpose: budget models with 32k windows
// pay for every byte of it on every call, and the tool schemas carry the tools' own contracts.
const basePrompt = `You are troupe, a coding agent working in a real repository through tools.

How to work:
- Look before you change: read the files you will edit (read_file), search with grep/glob, list with list_dir.
- Change code with edit_file (exact old_string → new_string; read the file first) or write_file for new files.
- Run commands with bash: build, test, and check your work. Prefer the project's own test command.
- Keep going with tool calls until the task is done; do not stop to ask unless you truly cannot proceed.
- When done, reply with a short final answer in plain text: what you changed and how you verified it.
- Tool errors are information: read them, fix the call, and try again differently; never repeat a failing call unchanged.
- Stay inside the workspace. Never invent file contents or command output.`

// PromptParts is what a session's stable prefix is made of.
type PromptParts struct {
	Root, Mode, RolePrompt string
	UserDir                string // the user's config dir (their AGENTS.md); "" for none
	Skills                 []config.Skill
	PromptMode             *config.PromptMode // nil: the default mode, code
	// Instructions are the session's instruction files (see SessionInstructions); nil loads
	// the user's and the root's.
	Instructions *config.Instructions
	// Memory is the memory block, frozen at the session's start ("" for none).
	Memory string
}

// SessionInstructions loads the instruction files of a session in workspace root started from
// cwd (relative to root): the user's AGENTS.md in userDir, then the root's down to cwd.
func SessionInstructions(root, cwd, userDir string) *config.Instructions {
	userFile := ""
	if userDir != "" {
		userFile = filepath.Join(userDir, "AGENTS.md")
	}
	return config.LoadInstructions(root, filepath.Join(root, filepath.FromSlash(cwd)), userFile)
}

// SystemPrompt assembles the stable prefix for a session in workspace root: the base prompt,
// the mode's rules, the environment, the instruction files (the user's AGENTS.md in userDir,
// then the project's AGENTS.md or CLAUDE.md), the memory and the skills index. It depends on nothing that
// changes between turns, so it is byte-identical across a session's calls.
func SystemPrompt(p PromptParts) string {
	root, rolePrompt, userDir := p.Root, p.RolePrompt, p.UserDir
	var b strings.Builder
	b.WriteString(basePrompt)
	b.WriteString("\n\n")
	b.WriteString(modeRules(p.Mode))
	if pm := p.PromptMode; pm != nil && pm.Instructions != "" {
		b.WriteString("\n\n" + pm.Instructions)
	}
	if rolePrompt = strings.TrimSpace(rolePrompt); rolePrompt != "" {
		b.WriteString("\n\nYour role as a subagent:\n")
		b.WriteString(rolePrompt)
	}
	fmt.Fprintf(&b, "\n\nEnvironment: workspace %s; %s/%s.", root, runtime.GOOS, runtime.GOARCH)
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		b.WriteString(" The workspace is a git repository.")
	}
	instr := p.Instructions
	if instr == nil {
		instr = SessionInstructions(root, "", userDir)
	}
	if text := instr.Prompt(); text != "" {
		b.WriteString("\n\n" + text)
	}
	if p.Memory != "" {
		b.WriteString("\n\n" + p.Memory)
	}
	if index := config.SkillIndex(p.Skills); index != "" {
		b.WriteString("\n\n" + index)
	}
	return b.String()
}

func modeRules(mode string) string {
	switch mode {
	case "plan":
		return "Mode plan: read-only. Investigate and return a plan; do not edit files or run commands that change anything."
	case "auto-edit":
		return "Mode auto-edit: file edits in the workspace are allowed; commands may need the user's approval."
	case "yolo":
		return "Mode yolo: all tools are allowed; be careful with destructive commands."
	default:
		return "Mode ask: reading is allowed; edits and commands may need the user's approval."
	}
}

// promptModeRefusal is why a tool the prompt mode leaves out cannot be called, for the model.
func promptModeRefusal(pm *config.PromptMode) string {
	why := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(pm.Description), "."))
	if why == "" {
		why = "its own tool list"
	}
	return fmt.Sprintf("prompt mode %s does not offer it (%s); only the user can switch modes (/prompt code)", pm.Name, why)
}
