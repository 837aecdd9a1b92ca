package tools

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/internal/memory"
	"github.com/troupe-dev/troupe/tools/sandbox"
)

// Env is the world one session's tool calls run in. Create it with a composite literal and
// share it by pointer; Close it when the session ends.
type Env struct {
	// Root is the absolute workspace root. ResolvePath evaluates its symlinks itself, so a
	// root given through a symlink still works.
	Root string
	// TempDir is the session's temp dir; it exists. Background job logs go here.
	TempDir string
	Turn    int
	// Environ is the exact environment of commands. nil means a minimal default: PATH and
	// HOME from this process, LANG, TERM=dumb and TMPDIR=TempDir.
	Environ []string
	// Sandbox confines commands; nil runs them directly.
	Sandbox Sandbox
	// Files is the session's file truth; nil turns the state requirement and the read
	// bookkeeping off.
	Files *FileTracker
	// Artifacts keeps whole outputs too large for a result; nil means none are kept.
	Artifacts ArtifactStore
	// Agents is the session behind the agent tools; nil means this session cannot delegate.
	Agents AgentControl
	// Goals is the session behind the goal tools; nil means the session has no goal support.
	Goals GoalControl
	// Skills is the session behind load_skill; nil means the session has no skills.
	Skills SkillSource
	// Memory keeps the user profile and project facts behind the memory tool; nil means the
	// session keeps none (a subagent).
	Memory *memory.Keeper
	// MCP calls the tools of the Node's MCP servers; nil means none are configured.
	MCP MCPCaller
	// ReadOnlyRoot makes the workspace read-only to commands (a plan-safe verifier's bash):
	// the sandbox grants writes to the temp dir only.
	ReadOnlyRoot bool
	// NoRepair is the repair bench's baseline (--no-repair): only broken JSON is repaired, as
	// before issue 9; a call that needs any other repair is refused, and a write is not
	// syntax-checked afterwards.
	NoRepair bool
	// Secrets are the values no tool result may show (the bus token, provider API keys),
	// given at session start: every result is passed through it before the model sees it.
	Secrets Redactor
	// Hidden are the absolute paths that hold credentials (sandbox.HiddenPaths): the sandbox
	// hides them from commands, the file tools refuse them, and with no sandbox a command
	// naming one asks.
	Hidden []string

	jobs     jobRegistry
	failures callFailures
	// skill is the skill load_skill activated last; its allowed-tools bound the calls.
	skill *LoadedSkill
}

// commandEnviron is the environment commands get: Environ exactly, or the minimal default.
func (e *Env) commandEnviron() []string {
	if e.Environ != nil {
		return append([]string(nil), e.Environ...)
	}
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	env := []string{"PATH=" + path, "LANG=C.UTF-8", "TERM=dumb"}
	if home, err := os.UserHomeDir(); err == nil {
		env = append(env, "HOME="+home)
	}
	if e.TempDir != "" {
		env = append(env, "TMPDIR="+e.TempDir)
	}
	return env
}

// resolve applies the path policy to a path argument: inside the workspace, and not holding
// credentials (Hidden).
func (e *Env) resolve(p string) (abs, rel string, err error) {
	abs, rel, err = ResolvePath(e.Root, p)
	if err == nil {
		if h, hidden := sandbox.IsHidden(abs, e.Hidden); hidden {
			return "", "", fmt.Errorf("path %q refused: %s holds credentials, which tools never read or write (the user can list it in [sandbox] allow_read of their own config)", p, h)
		}
	}
	return abs, rel, err
}

// hiddenWithin is the hidden paths inside the workspace root (resolved), relative to it.
func (e *Env) hiddenWithin(root string) map[string]bool {
	var out map[string]bool
	for _, h := range e.Hidden {
		rel, err := filepath.Rel(root, h)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[filepath.ToSlash(rel)] = true
	}
	return out
}

// underHidden reports whether the workspace-relative rel is a hidden path or beneath one.
func underHidden(rel string, hidden map[string]bool) bool {
	for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		if hidden[p] {
			return true
		}
	}
	return false
}

// root is the workspace root with its symlinks evaluated.
func (e *Env) root() (string, error) {
	abs, _, err := ResolvePath(e.Root, ".")
	return abs, err
}

// Close stops every background job the session started (their whole process groups) and
// waits for them. The Env must not start jobs afterwards.
func (e *Env) Close() error { return e.jobs.stopAll() }

// Jobs lists the background jobs started in this Env, oldest first.
func (e *Env) Jobs() []Job { return e.jobs.list() }
