package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// newFileMode is the mode of files the tools create.
const newFileMode fs.FileMode = 0o644

// writeFileAtomic replaces abs with data through a temp file in the same directory and a
// rename, so a reader never sees half a file and a crash never leaves one. An existing
// file keeps its mode; missing parent directories are created. created says the file is new.
func writeFileAtomic(abs string, data []byte) (created bool, err error) {
	mode := newFileMode
	info, err := os.Stat(abs)
	switch {
	case err == nil && info.IsDir():
		return false, fmt.Errorf("%s is a directory", abs)
	case err == nil:
		mode = info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	case errors.Is(err, fs.ErrNotExist):
		created = true
	default:
		return false, fmt.Errorf("stat %s: %w", abs, err)
	}
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("create directory %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(abs)+".troupe-*")
	if err != nil {
		return false, fmt.Errorf("create temp file in %s: %w", dir, err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err = tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("sync %s: %w", tmp.Name(), err)
	}
	if err = tmp.Chmod(mode); err != nil {
		tmp.Close()
		return false, fmt.Errorf("chmod %s: %w", tmp.Name(), err)
	}
	if err = tmp.Close(); err != nil {
		return false, fmt.Errorf("close %s: %w", tmp.Name(), err)
	}
	if err = os.Rename(tmp.Name(), abs); err != nil {
		return false, fmt.Errorf("rename into %s: %w", abs, err)
	}
	return created, nil
}

// countLines counts lines the way an editor shows them: a final line without a newline counts.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	if s[len(s)-1] != '\n' {
		n++
	}
	return n
}
