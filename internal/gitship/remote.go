package gitship

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// A shared remote (docs/WORKERS.md "How the code travels"): a git remote the parent and its
// workers can all reach. The worker fetches the base from it instead of a bundle, and a writing
// child's work is pushed to it as refs/troupe/<task>, outside refs/heads, so it is never one of
// the user's branches, starts no CI run on push and does not show in a branch list; the parent
// deletes it once it has fetched it. Only commits already on the remote are ever fetched from
// it: a base the remote lacks (the user's unpushed commits) travels as a bundle, so nothing of
// the user's is pushed anywhere by troupe.

// RemoteRef is where a task's branch (troupe/<task>) is pushed on the shared remote.
func RemoteRef(branch string) string { return "refs/" + branch }

// OriginURL is the URL of the repository's origin remote at root, made absolute when it is a
// relative path (a worker does not run in the parent's directory); "" when there is none.
func OriginURL(ctx context.Context, root string) string {
	url, err := run(ctx, root, "remote", "get-url", "origin")
	if err != nil || url == "" {
		return ""
	}
	return absRemote(root, url)
}

// absRemote makes a relative local path absolute against dir; URLs (scheme://…), scp-like
// host:path and absolute paths are returned as they are.
func absRemote(dir, url string) string {
	if strings.Contains(url, "://") || filepath.IsAbs(url) {
		return url
	}
	if i := strings.IndexByte(url, ':'); i > 0 && !strings.Contains(url[:i], "/") {
		return url // host:path
	}
	if top, err := run(context.Background(), dir, "rev-parse", "--show-toplevel"); err == nil {
		dir = top
	}
	return filepath.Join(dir, url)
}

// remoteHas reports whether the remote at url holds commit: one of its branches or tags is the
// commit or descends from it (as far as the local repository at dir knows those tips). An
// unreachable remote is an error.
func remoteHas(ctx context.Context, dir, url, commit string) (bool, error) {
	out, err := gitCmd{dir: dir, args: []string{"ls-remote", "--heads", "--tags", url}}.run(ctx)
	if err != nil {
		return false, err
	}
	var tips []string
	for line := range strings.SplitSeq(out, "\n") {
		sha, _, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if !ok {
			continue
		}
		if sha == commit {
			return true, nil
		}
		tips = append(tips, sha)
	}
	if len(tips) == 0 {
		return false, nil
	}
	// Of the remote's tips, the ones this repository has; then: is commit reachable from them?
	known, err := gitCmd{dir: dir, args: []string{"cat-file", "--batch-check=%(objectname) %(objecttype)"},
		stdin: strings.NewReader(strings.Join(tips, "\n") + "\n")}.run(ctx)
	if err != nil {
		return false, err
	}
	args := []string{"rev-list", "-n", "1", commit, "--not"}
	have := 0
	for line := range strings.SplitSeq(known, "\n") {
		if sha, typ, _ := strings.Cut(line, " "); typ == "commit" || typ == "tag" {
			args, have = append(args, sha), have+1
		}
	}
	if have == 0 {
		return false, nil
	}
	left, err := run(ctx, dir, args...)
	if err != nil {
		return false, err
	}
	return left == "", nil
}

// Unpush deletes a task's pushed branch (RemoteRef) from the shared remote, once the parent
// has fetched it.
func Unpush(ctx context.Context, root, url, branch string) error {
	if !strings.HasPrefix(branch, BranchPrefix) {
		return fmt.Errorf("gitship: %s is not a task's branch", branch)
	}
	if err := move(ctx, root, "push", "-q", url, ":"+RemoteRef(branch)); err != nil {
		return fmt.Errorf("gitship: delete %s from %s: %w", RemoteRef(branch), url, err)
	}
	return nil
}
