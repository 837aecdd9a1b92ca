package tools

import (
	"fmt"
	"path"
	"strings"

	"github.com/troupe-dev/troupe/tools/shellparse"
)

// Protected files grant power beyond the workspace's content: troupe's own config and state
// (a written troupe.toml or agent file changes how the next run behaves), git's internals
// (.git/config's core.fsmonitor and .git/hooks run on the user's next git command, outside any
// sandbox), .gitmodules (points git at other repositories) and .envrc (direnv runs it on cd).
// Writing one always asks, in every mode but yolo, even under an allow pattern; deny patterns
// still win.

// protectedWhy says why the workspace-relative path rel is protected, or "" when it is not.
// Any path component counts, so a nested repository's .git or a subdirectory's troupe.toml is
// protected too.
func protectedWhy(rel string) string {
	rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		switch part {
		case ".git":
			return "it is inside git's own directory (config and hooks there run commands on the user's next git call)"
		case ".troupe":
			return "it is troupe's own state (agents, prompts, node files)"
		}
		if i < len(parts)-1 {
			continue
		}
		switch part {
		case "troupe.toml":
			return "it is troupe's project config (it sets permissions and the sandbox for later runs)"
		case ".gitmodules":
			return "it tells git which repositories to fetch"
		case ".envrc":
			return "direnv runs it when the user enters the directory"
		}
	}
	return ""
}

// protectedWrite is the policy's answer for a write to a protected file: always ask.
func protectedWrite(spec Spec, subject string, hasSubject bool) (Decision, string, bool) {
	if spec.Risk != RiskWrite || !hasSubject || len(spec.PathArgs) == 0 {
		return Allow, "", false
	}
	why := protectedWhy(subject)
	if why == "" {
		return Allow, "", false
	}
	return Ask, fmt.Sprintf("%s is a protected file (%s): writing it always asks, whatever the mode or allow patterns (approve it, run with --yes, or use --mode yolo)", subject, why), true
}

// protectedShellWrite is the same answer for a command that writes a protected file: through
// a redirection (echo x > .git/hooks/pre-commit) or tee, as tools/shellparse reads it.
func protectedShellWrite(script *shellparse.Script) (Decision, string, bool) {
	if script == nil {
		return Allow, "", false
	}
	for _, target := range script.Writes {
		if why := protectedWhy(target); why != "" {
			return Ask, fmt.Sprintf("the command writes %s, a protected file (%s): that always asks, whatever the mode or allow patterns (approve it, run with --yes, or use --mode yolo)", target, why), true
		}
	}
	return Allow, "", false
}
