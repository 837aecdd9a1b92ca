// Package gitship moves a project's code between a parent session and the worker that runs its
// child, as git (docs/WORKERS.md "How the code travels"):
//
//   - the parent sends its HEAD commit (the base) and a binary-safe patch of its uncommitted
//     changes; when the worker cannot reach a shared remote, the base travels as a git bundle in
//     the project's JetStream object store, incremental on the bundles published before;
//   - the worker fetches the base into its repository cache (one bare repository per project),
//     checks out a worktree per task on branch troupe/<task> and applies the patch;
//   - a writing child's branch comes back as a bundle (or pushed to the shared remote), and the
//     parent imports it as branch troupe/<task> with its worktree, exactly where a local child's
//     result would be, so `troupe worktree merge <task>` merges it.
//
// Everything runs real git commands with timeouts; callers run them off any actor.
package gitship

import (
	"errors"
	"fmt"

	"github.com/troupe-dev/troupe/messages"
)

// Result is what Return sends back for a writing child; the worker copies Branch, DiffStat and
// Bundle into its AgentResult.
type Result struct {
	Branch   string              // troupe/<task>; "" when the child changed nothing
	Commit   string              // the branch's tip
	Bundle   *messages.ObjectRef // the branch's bundle; nil when pushed or unchanged
	Pushed   bool                // the branch was pushed to the shared remote
	PushErr  error               // why a push to the shared remote failed (the bundle went instead)
	DiffStat string              // git diff --stat of the child's own work
}

// maxInlinePatch is the largest patch that travels inside the SpawnTask; a larger one goes to
// the object store (the server's default max payload is 1 MiB for the whole message).
const maxInlinePatch = 32 << 10

// ErrMissing is wrapped when an object the code needs is not in the object store.
var ErrMissing = errors.New("not in the object store")

// BranchPrefix names the branches of children's work, as tools/worktree does.
const BranchPrefix = "troupe/"

// Branch is the branch a task's work is on.
func Branch(task string) string { return BranchPrefix + task }

// checkTask accepts task names safe as a directory, a branch and an object name: 1-128
// characters of letters, digits, _ and -, starting with a letter or digit (a session id or a
// tools/worktree name).
func checkTask(task string) error {
	ok := task != "" && len(task) <= 128
	for i, r := range task {
		ok = ok && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || (i > 0 && (r == '_' || r == '-')))
	}
	if !ok {
		return fmt.Errorf("gitship: task name %q: use 1-128 characters of letters, digits, _ and -, starting with a letter or digit", task)
	}
	return nil
}
