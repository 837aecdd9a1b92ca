package config

import (
	"os"
	"path/filepath"
)

// ProjectRoot is the project that dir belongs to: the nearest directory at or above dir that
// holds a .git entry (a directory in a plain clone, a file in a worktree or submodule), which is
// what `git rev-parse --show-toplevel` answers, found with a few stat calls instead of a
// subprocess on every start. Outside any repository it is dir itself. Symbolic links are
// resolved first, as git does, so every path to one project names the same root.
func ProjectRoot(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	dir = filepath.Clean(dir)
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
