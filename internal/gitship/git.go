package gitship

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/tools/worktree"
)

// How long one git command may take: local ones are quick, the ones that move a repository
// (fetch, push, bundle) may take minutes on a large one.
const (
	localTimeout = time.Minute
	moveTimeout  = 15 * time.Minute
)

// troupeIdentity signs the commits troupe makes for a child (never the user's name on work the
// user did not write); the GIT_* variables win over every configuration file.
var troupeIdentity = []string{
	"GIT_AUTHOR_NAME=troupe", "GIT_AUTHOR_EMAIL=troupe@localhost",
	"GIT_COMMITTER_NAME=troupe", "GIT_COMMITTER_EMAIL=troupe@localhost",
}

// gitCmd is one git command: git -C dir args, with extra environment and optional stdin.
type gitCmd struct {
	dir     string
	args    []string
	env     []string
	stdin   io.Reader
	timeout time.Duration
}

// run runs a local git command in dir and returns its stdout, trimmed.
func run(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitCmd{dir: dir, args: args}.run(ctx)
	return strings.TrimSpace(out), err
}

// move runs a git command that moves objects (fetch, push, bundle) with the long timeout.
func move(ctx context.Context, dir string, args ...string) error {
	_, err := gitCmd{dir: dir, args: args, timeout: moveTimeout}.run(ctx)
	return err
}

func (g gitCmd) run(ctx context.Context) (string, error) {
	d := g.timeout
	if d == 0 {
		d = localTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	full := append([]string{"-C", g.dir, "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"}, g.args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = append(worktree.GitEnv(), g.env...)
	cmd.Stdin = g.stdin
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return out.String(), fmt.Errorf("git %s: timed out after %s", verb(g.args), d)
		}
		if errors.Is(err, exec.ErrNotFound) {
			return "", errors.New("git is not installed (or not on PATH); install git")
		}
		return out.String(), fmt.Errorf("git %s: %s", verb(g.args), oneLine(errb.String(), err))
	}
	return out.String(), nil
}

// verb names a git command in an error by its first two words (git fetch <file> would
// otherwise print a temporary path nobody can use).
func verb(args []string) string {
	if len(args) > 2 {
		args = args[:2]
	}
	return strings.Join(args, " ")
}

// oneLine folds what git said on stderr into one line: errors here are read in a status line.
func oneLine(stderr string, err error) string {
	var parts []string
	for l := range strings.SplitSeq(stderr, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "hint:") {
			parts = append(parts, l)
		}
	}
	if len(parts) == 0 {
		return err.Error()
	}
	s := strings.Join(parts, "; ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// hasCommit reports whether the repository in dir holds commit sha.
func hasCommit(ctx context.Context, dir, sha string) bool {
	_, err := run(ctx, dir, "cat-file", "-e", sha+"^{commit}")
	return err == nil
}

// commitAll stages everything in the worktree and commits it as troupe (hooks skipped: this is
// a checkpoint of a child's work, the user's hooks run when they merge it). It returns the new
// HEAD and whether a commit was made.
func commitAll(ctx context.Context, dir, message string, env ...string) (string, bool, error) {
	if _, err := run(ctx, dir, "add", "-A"); err != nil {
		return "", false, err
	}
	made := false
	if _, err := run(ctx, dir, "diff", "--cached", "--quiet"); err != nil {
		if _, err := (gitCmd{dir: dir, env: append(env, troupeIdentity...), args: []string{"commit", "-q", "--no-verify", "-m", message}}).run(ctx); err != nil {
			return "", false, err
		}
		made = true
	}
	head, err := run(ctx, dir, "rev-parse", "HEAD")
	return head, made, err
}

// ensureIgnored makes <dir>/.troupe ignored the way troupe does everywhere (a .gitignore of
// "*" inside it), so a child's own troupe state is never shipped back as its work.
func ensureIgnored(dir string) error {
	td := dir + "/.troupe"
	if err := os.MkdirAll(td, 0o755); err != nil {
		return err
	}
	gi := td + "/.gitignore"
	if _, err := os.Lstat(gi); err == nil {
		return nil
	}
	return os.WriteFile(gi, []byte("*\n"), 0o644)
}

// datedAs returns the environment that dates a commit like commit's own committer date, so a
// commit troupe makes from the same tree on the same parent is the same commit on every worker
// and every delivery.
func datedAs(ctx context.Context, dir, commit string) []string {
	ct, err := run(ctx, dir, "show", "-s", "--format=%ct", commit)
	if err != nil || ct == "" {
		return nil
	}
	return []string{"GIT_AUTHOR_DATE=@" + ct + " +0000", "GIT_COMMITTER_DATE=@" + ct + " +0000"}
}
