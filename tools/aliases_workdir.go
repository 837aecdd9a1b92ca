package tools

import (
	"path"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// A command's working directory, given as an argument of its own (Cline's cwd, Codex's
// workdir, Gemini CLI's directory), becomes a cd before the command: bash here has no such
// argument.

var shellSafe = lazyre.New(`^[A-Za-z0-9_./=:,+@%^-]+$`)

// shellQuote quotes s for bash unless it is made only of characters bash leaves alone.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// inDirectory turns a working-directory argument into a cd before the command.
func inDirectory(key string) func(map[string]any) (string, string) {
	return func(args map[string]any) (string, string) {
		dir, ok := args[key].(string)
		delete(args, key)
		cmd, isString := args["command"].(string)
		if ok && isString {
			args["command"] = cdThen(dir, cmd)
		}
		return "", ""
	}
}

// cdThen runs cmd in dir: "cd dir && cmd". A command that already starts by changing into
// that same directory is left as it is: models often send both (a DeepSeek bash call with cwd
// and "cd <cwd> && …"), and a relative directory entered twice would be a different one.
func cdThen(dir, cmd string) string {
	if dir == "" || dir == "." {
		return cmd
	}
	if first, ok := leadingCd(cmd); ok && sameDir(first, dir) {
		return cmd
	}
	return "cd " + shellQuote(dir) + " && " + cmd
}

// leadingCd is the directory of a command line's first command when it is "cd DIR" followed
// by &&, ; or a line break: DIR bare, or in single or double quotes without escapes.
func leadingCd(cmd string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(cmd, " \t"), "cd")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return "", false
	}
	rest = strings.TrimLeft(rest, " \t")
	var dir string
	switch {
	case rest == "":
		return "", false
	case rest[0] == '\'' || rest[0] == '"':
		end := strings.IndexByte(rest[1:], rest[0])
		if end < 0 || (rest[0] == '"' && strings.ContainsAny(rest[1:1+end], "\\$`")) {
			return "", false
		}
		dir, rest = rest[1:1+end], rest[2+end:]
	default:
		end := strings.IndexAny(rest, " \t\n;&|")
		if end < 0 {
			end = len(rest)
		}
		dir, rest = rest[:end], rest[end:]
		if strings.ContainsAny(dir, "\\$`\"'*?~") {
			return "", false
		}
	}
	rest = strings.TrimLeft(rest, " \t")
	if strings.HasPrefix(rest, "&&") || strings.HasPrefix(rest, ";") || strings.HasPrefix(rest, "\n") {
		return dir, dir != ""
	}
	return "", false
}

// sameDir says whether two directory spellings name the same directory (a trailing slash or
// ./ aside).
func sameDir(a, b string) bool {
	return path.Clean(a) == path.Clean(b)
}
