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
)

// Source says where a task's code comes from: what a SpawnTask carries in Repo.
type Source struct {
	URL    string `json:"url,omitempty"`    // a shared remote the worker fetches from; "" when none
	Base   string `json:"base"`             // the parent's HEAD commit
	Bundle string `json:"bundle,omitempty"` // object name of a bundle holding Base (when URL is "")
	Patch  string `json:"patch,omitempty"`  // object name of the uncommitted changes; "" when clean
	// PatchBytes is the size of the patch, and BundleBytes what this Prepare uploaded (0 when
	// the bundle was already there): what the task cost in bytes moved.
	PatchBytes  int64 `json:"-"`
	BundleBytes int64 `json:"-"`
}

// Result is what a writing child returns: its branch, as a bundle or pushed.
type Result struct {
	Branch   string `json:"branch,omitempty"` // troupe/<task>; "" when the child changed nothing
	Base     string `json:"base,omitempty"`   // the commit the parent sent (the bundle's prerequisite)
	Commit   string `json:"commit,omitempty"` // the branch's tip
	Bundle   string `json:"bundle,omitempty"` // object name of the branch's bundle ("" when pushed)
	Pushed   bool   `json:"pushed,omitempty"` // the branch was pushed to the shared remote
	DiffStat string `json:"diffstat,omitempty"`
	Bytes    int64  `json:"-"` // bundle size
}

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
