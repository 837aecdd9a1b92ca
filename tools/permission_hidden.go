package tools

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/tools/sandbox"
	"github.com/troupe-dev/troupe/tools/shellparse"
)

// With no sandbox, nothing hides the credential paths (Env.Hidden) from a command, so a
// command that names one asks, in every mode (headless: refused). The words are read as bash
// reads them (tools/shellparse), with ~ and $HOME expanded and relative paths taken from the
// workspace root; a path built at run time is beyond this check, which is why the sandbox is
// the real protection.

// namesHidden says which hidden path a bash call names, if any.
func namesHidden(env *Env, args json.RawMessage) (string, bool) {
	if len(env.Hidden) == 0 {
		return "", false
	}
	var a struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(args, &a) != nil {
		return "", false
	}
	return commandNamesHidden(env, a.Command)
}

// commandNamesHidden says which hidden path command names, if any.
func commandNamesHidden(env *Env, command string) (string, bool) {
	if len(env.Hidden) == 0 || command == "" {
		return "", false
	}
	home := ""
	for _, kv := range env.commandEnviron() {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	script := shellparse.Parse(command)
	words := append([]string(nil), script.Writes...)
	for _, c := range script.Commands {
		words = append(words, c.Args...)
	}
	for _, w := range words {
		for _, p := range candidatePaths(w, home, env.Root) {
			if h, hidden := sandbox.IsHidden(p, env.Hidden); hidden {
				return h, true
			}
		}
	}
	return "", false
}

// candidatePaths are the absolute paths a word may name: itself, and after an option's "=".
func candidatePaths(word, home, root string) []string {
	var out []string
	for _, w := range []string{word, afterEquals(word)} {
		if w == "" {
			continue
		}
		w = strings.NewReplacer(`"`, "", `'`, "").Replace(w) // a dynamic word keeps its quotes
		for _, prefix := range []string{"~", "$HOME", "${HOME}"} {
			if rest, ok := strings.CutPrefix(w, prefix); ok && home != "" && (rest == "" || rest[0] == '/') {
				w = home + rest
			}
		}
		if !filepath.IsAbs(w) {
			w = filepath.Join(root, w)
		}
		out = append(out, filepath.Clean(w))
	}
	return out
}

func afterEquals(w string) string {
	_, v, ok := strings.Cut(w, "=")
	if !ok {
		return ""
	}
	return v
}

// hiddenAsk is the gate's reason for asking about a command that names a hidden path.
func hiddenAsk(h string) string {
	return fmt.Sprintf("the command names %s, which holds credentials, and no sandbox hides it from commands (approve only if this command needs it)", h)
}
