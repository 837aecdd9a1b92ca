package worktree

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Info describes one of troupe's worktrees.
type Info struct {
	Name   string
	Path   string // absolute
	Branch string // troupe/<name>; "" when the worktree is on a detached HEAD
	Base   string // the commit it was branched from
	Ahead  int    // commits on the branch since Base
	Dirty  bool   // uncommitted changes in the worktree (not part of a merge)
	Merged bool   // it has commits, and all of them are in root's current HEAD
	// Missing means the directory is gone but git still has it registered; Drop cleans it up.
	Missing bool
}

// List returns troupe's worktrees of the repository that holds root (those under
// <top>/.troupe/worktrees), sorted by name.
func List(root string) ([]Info, error) {
	top, err := toplevel(root)
	if err != nil {
		return nil, err
	}
	out, err := run(top, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, fmt.Errorf("worktree: list: %w", err)
	}
	prefix := filepath.Join(top, Dir) + string(filepath.Separator)
	var infos []Info
	for _, e := range parsePorcelain(out) {
		path := e.path
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
		name, ok := strings.CutPrefix(path, prefix)
		if !ok || name == "" || strings.ContainsRune(name, filepath.Separator) {
			continue // the main checkout, or a worktree troupe did not make
		}
		info := Info{Name: name, Path: path, Branch: strings.TrimPrefix(e.branch, "refs/heads/"), Missing: e.prunable}
		if _, err := os.Stat(path); err != nil {
			info.Missing = true // older git does not say "prunable"
		}
		if info.Branch != "" {
			info.Base = base(top, info.Branch)
			if info.Base != "" {
				if n, err := run1(top, "rev-list", "--count", info.Base+".."+info.Branch); err == nil {
					info.Ahead, _ = strconv.Atoi(n)
				}
			}
			if info.Ahead > 0 {
				_, err := run(top, "merge-base", "--is-ancestor", info.Branch, "HEAD")
				info.Merged = err == nil
			}
		}
		if !info.Missing {
			paths, err := dirtyPaths(path)
			if err != nil {
				return nil, fmt.Errorf("worktree: status of %s: %w", name, err)
			}
			info.Dirty = len(paths) > 0
		}
		infos = append(infos, info)
	}
	slices.SortFunc(infos, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	return infos, nil
}

// porcelainEntry is one worktree from `git worktree list --porcelain`.
type porcelainEntry struct {
	path, branch string
	prunable     bool
}

// parsePorcelain reads blank-line-separated records of "key value" lines.
func parsePorcelain(out string) []porcelainEntry {
	var entries []porcelainEntry
	var cur *porcelainEntry
	for line := range strings.SplitSeq(out, "\n") {
		key, value, _ := strings.Cut(line, " ")
		switch key {
		case "worktree":
			entries = append(entries, porcelainEntry{path: value})
			cur = &entries[len(entries)-1]
		case "branch":
			if cur != nil {
				cur.branch = value
			}
		case "prunable":
			if cur != nil {
				cur.prunable = true
			}
		}
	}
	return entries
}
