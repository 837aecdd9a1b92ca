package worktree

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// gitError is a failed git command with what git said on stderr.
type gitError struct {
	args   []string
	code   int // exit code; -1 when git did not run
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), msg)
}

func (e *gitError) Unwrap() error { return e.err }

// exitCode returns the exit code of a git command: 0 for no error, -1 when git did not run.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ge *gitError
	if errors.As(err, &ge) {
		return ge.code
	}
	return -1
}

// run runs git -C dir args and returns its stdout. Variables that point git at another
// repository (set when troupe itself runs from a git hook) are removed, so -C decides; git
// never prompts, and it takes no optional locks, so listing does not fight the user's own git.
func run(dir string, args ...string) (string, error) {
	return runEnv(dir, nil, args...)
}

// runEnv is run with extra environment variables, which win over git's configuration.
func runEnv(dir string, env []string, args ...string) (string, error) {
	full := append([]string{"-C", dir}, args...)
	cmd := exec.Command("git", full...)
	cmd.Env = append(GitEnv(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		code := -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		return out.String(), &gitError{args: args, code: code, stderr: errb.String(), err: err}
	}
	return out.String(), nil
}

// run1 is run with the output trimmed, for commands that print one value.
func run1(dir string, args ...string) (string, error) {
	out, err := run(dir, args...)
	return strings.TrimSpace(out), err
}

// GitEnv is the process environment without the variables that point git at another
// repository (set when troupe runs from a git hook); git never prompts. Every git troupe runs
// (worktrees here, code shipped to workers in internal/gitship) gets it.
func GitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
			"GIT_PREFIX", "GIT_NAMESPACE", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
}

// troupeIdentity is how troupe signs the commits it makes for a child: never the user's name on
// work the user did not write. It is passed as GIT_AUTHOR_*/GIT_COMMITTER_* because those win
// over every configuration file and over the same variables in troupe's own environment.
var troupeIdentity = []string{
	"GIT_AUTHOR_NAME=troupe", "GIT_AUTHOR_EMAIL=troupe@localhost",
	"GIT_COMMITTER_NAME=troupe", "GIT_COMMITTER_EMAIL=troupe@localhost",
}

// noSign turns commit signing off for troupe's commits: a gpg or ssh-agent prompt would hang a
// background child.
var noSign = []string{"-c", "commit.gpgsign=false"}

// hasIdentity reports whether git can sign commits as the user in dir (config or environment).
func hasIdentity(dir string) bool {
	_, err := run(dir, "var", "GIT_COMMITTER_IDENT")
	return err == nil
}
