package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/troupe-dev/troupe/internal/safefs"
)

// maxSymlinkHops bounds symlink resolution, as the kernel does (ELOOP).
const maxSymlinkHops = 40

// ResolvePath is the path policy. It resolves p (relative to root, or absolute) with every
// symlink along it evaluated, including a dangling one at the end and those above a part that
// does not exist yet, and refuses anything that ends up outside root. It returns the resolved
// absolute path and the path relative to the resolved root ("." for the root itself). The
// error says the path and why it was refused.
func ResolvePath(root, p string) (abs, rel string, err error) {
	if root == "" || !filepath.IsAbs(root) {
		return "", "", fmt.Errorf("workspace root %q is not an absolute path", root)
	}
	realRoot, err := resolveSymlinks(filepath.Clean(root))
	if err != nil {
		return "", "", fmt.Errorf("resolve workspace root %s: %w", root, err)
	}
	if strings.ContainsRune(p, 0) {
		return "", "", refusal(p, "it contains a NUL byte", realRoot)
	}
	joined := filepath.Clean(p)
	if !filepath.IsAbs(joined) {
		joined = filepath.Join(filepath.Clean(root), joined)
	}
	if within("/proc", joined) {
		return "", "", refusal(p, "paths under /proc are never allowed", realRoot)
	}
	if !within(filepath.Clean(root), joined) && !within(realRoot, joined) {
		why := "it is an absolute path outside the workspace"
		if !filepath.IsAbs(p) {
			why = "it climbs out of the workspace with '..'"
		}
		return "", "", refusal(p, why, realRoot)
	}
	resolved, err := resolveSymlinks(joined)
	if err != nil {
		return "", "", fmt.Errorf("path %q: %w", p, err)
	}
	if !within(realRoot, resolved) {
		return "", "", refusal(p, fmt.Sprintf("a symlink along it leads outside the workspace, to %s", resolved), realRoot)
	}
	rel, err = filepath.Rel(realRoot, resolved)
	if err != nil {
		return "", "", fmt.Errorf("path %q: %w", p, err)
	}
	return resolved, filepath.ToSlash(rel), nil
}

func refusal(p, why, root string) error {
	return fmt.Errorf("path %q refused: %s; only paths inside the workspace (%s) are allowed", p, why, root)
}

// within reports whether p is dir or below it; both must be clean and absolute.
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// resolveSymlinks evaluates the symlinks of a clean absolute path component by component.
// Unlike filepath.EvalSymlinks it succeeds when the path does not exist: the missing tail is
// appended as is (nothing missing can be a symlink). A dangling symlink is followed to where
// it points, since writing through it would create its target.
func resolveSymlinks(p string) (string, error) {
	hops := 0
	resolved := string(filepath.Separator)
	rest := strings.Split(strings.TrimPrefix(p, string(filepath.Separator)), string(filepath.Separator))
	for len(rest) > 0 {
		part := rest[0]
		rest = rest[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, part)
		info, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return filepath.Join(append([]string{next}, rest...)...), nil
		}
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", next, err)
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		hops++
		if hops > maxSymlinkHops {
			return "", fmt.Errorf("resolve %s: too many levels of symbolic links", p)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("read symlink %s: %w", next, err)
		}
		if filepath.IsAbs(target) {
			resolved = string(filepath.Separator)
		}
		rest = append(strings.Split(target, string(filepath.Separator)), rest...)
	}
	return resolved, nil
}

// troupeStateRefusal answers a read of troupe's own state (.troupe/: the node file with the
// bus token, agents, prompts): it is never shown to the model.
const troupeStateRefusal = "troupe's own state is not readable by tools"

// isTroupeState reports whether the workspace-relative path rel is troupe's own state.
func isTroupeState(rel string) bool { return rel == ".troupe" || strings.HasPrefix(rel, ".troupe/") }

// refuseTroupeState is the read tools' answer for .troupe paths, or nil.
func refuseTroupeState(p, rel string) *Result {
	if !isTroupeState(rel) {
		return nil
	}
	r := errorResult(fmt.Sprintf("path %q refused: %s", p, troupeStateRefusal))
	return &r
}

// openRoot opens the workspace as a handle every file access resolves beneath, so a path the
// policy allowed cannot be redirected outside by a symlink swapped in afterwards.
func (e *Env) openRoot() (*safefs.Root, error) {
	root, err := e.root()
	if err != nil {
		return nil, err
	}
	return safefs.Open(root)
}

// openFailure is the result text for a file op that failed beneath the workspace handle.
func openFailure(tool, p, rel string, err error) string {
	if errors.Is(err, safefs.ErrOutside) {
		return fmt.Sprintf("path %q refused: it leads outside the workspace (a symlink along it points out, or was swapped in while the call ran); only paths inside the workspace are allowed", p)
	}
	return fmt.Sprintf("%s %s: %v", tool, rel, err)
}
