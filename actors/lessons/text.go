package lessons

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

// errorWords mark the line of a failed output that names the error.
var errorWords = lazyre.New(`(?i)\b(error|errors|fail|failed|failure|cannot|can't|not found|no such|undefined|missing|denied|invalid|unexpected|panic|exception|traceback|must|refused|unknown|expected|mismatch|timed out)\b`)

// runnerLine is a test runner's or a build tool's summary of a failure, which names no error:
// it is taken only when no other line does.
var runnerLine = lazyre.New(`^(--- FAIL|FAIL\b|=== |make(\[\d+\])?: \*\*\*|npm ERR! (code|errno|A complete log)|exit status|error: command failed|Process completed with exit)`)

// exitLine is the bash tool's last line ("[exit code 1]").
var exitLine = lazyre.New(`^\[exit code -?\d+\]$`)

// errorLine is the line of a failed output that names the error: the first one with an error
// word, else the last line with anything on it.
func errorLine(out string) string {
	var last, generic string
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || exitLine.MatchString(t) {
			continue
		}
		if runnerLine.MatchString(t) {
			if generic == "" {
				generic = t
			}
			continue
		}
		if errorWords.MatchString(t) {
			return textfmt.Clip(t, 200)
		}
		last = t
	}
	if last == "" {
		last = generic
	}
	if last == "" {
		return "(no output)"
	}
	return textfmt.Clip(last, 200)
}

var (
	digits = lazyre.New(`[0-9]+`)
	spaces = lazyre.New(`\s+`)
	hexIDs = lazyre.New(`\b[0-9a-f]{7,}\b`)
)

// normalize makes an error line comparable across sessions: lower case, numbers and ids
// replaced, spaces collapsed.
func normalize(s string) string {
	s = strings.ToLower(s)
	s = hexIDs.ReplaceAllString(s, "<id>")
	s = digits.ReplaceAllString(s, "#")
	s = spaces.ReplaceAllString(strings.TrimSpace(s), " ")
	return textfmt.Clip(s, 160)
}

// envAssign is a leading VAR=value word of a command line.
var envAssign = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*=`)

// commandHead is what makes two command lines the same command for a lesson: the program and
// its first argument, without a leading `cd dir &&` or environment assignments, so that
// `FOO=1 go test ./x` fixes `go test ./...`.
func commandHead(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	for strings.HasPrefix(cmd, "cd ") {
		i := strings.Index(cmd, "&&")
		if i < 0 {
			break
		}
		cmd = strings.TrimSpace(cmd[i+2:])
	}
	var words []string
	for _, w := range strings.Fields(cmd) {
		if len(words) == 0 && envAssign.MatchString(w) {
			continue
		}
		if len(words) == 1 && strings.HasPrefix(w, "-") {
			break
		}
		words = append(words, w)
		if len(words) == 2 {
			break
		}
	}
	return strings.Join(words, " ")
}

// readOnlyPrograms look and change nothing: running one is not a step of a fix.
var readOnlyPrograms = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "grep": true, "rg": true, "find": true, "echo": true,
	"pwd": true, "wc": true, "which": true, "type": true, "tree": true, "file": true, "stat": true, "env": true,
	"printenv": true, "nl": true, "less": true, "more": true, "sed": true, "awk": true, "diff": true,
	"git status": true, "git diff": true, "git log": true, "git show": true, "git branch": true,
}

// readOnlyCommand says whether a command head only looks.
func readOnlyCommand(head string) bool {
	prog, _, _ := strings.Cut(head, " ")
	return readOnlyPrograms[head] || readOnlyPrograms[prog]
}

// argString is one string argument of a call's JSON arguments ("" when absent).
func argString(args, name string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	s, _ := m[name].(string)
	return s
}

// callText is a call in one line: a command as written, a file tool with its path, anything
// else as its name and arguments.
func callText(tool, args string) string {
	if cmd := argString(args, "command"); tool == "bash" && cmd != "" {
		return "`" + textfmt.Clip(oneLine(cmd), 200) + "`"
	}
	return tool + " " + textfmt.Clip(oneLine(args), 200)
}

// changeText says what a successful call changed, for the "what fixed it" of a lesson.
func changeText(tool, args string, changed []string) string {
	path := argString(args, "path")
	switch {
	case tool == "edit_file" && path != "":
		return "edited " + path + ": `" + textfmt.Clip(oneLine(argString(args, "old_string")), 80) + "` → `" +
			textfmt.Clip(oneLine(argString(args, "new_string")), 80) + "`"
	case tool == "write_file" && path != "":
		return "wrote " + path
	case len(changed) > 0:
		return callText(tool, args) + " changed " + strings.Join(changed, ", ")
	}
	return ""
}

// canonical is JSON arguments re-encoded with sorted keys, as the loop detector shows them.
func canonical(args string) string {
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		return strings.TrimSpace(args)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func oneLine(s string) string { return spaces.ReplaceAllString(strings.TrimSpace(s), " ") }

// idOf is a lesson's id: a short hash of its key, so the same trap learnt again is the same
// lesson.
func idOf(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:4])
}
