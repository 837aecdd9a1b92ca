// Package safefs opens files beneath a directory handle so that checking a path and using it
// are one operation. A path is resolved by the kernel relative to the root's open directory,
// never re-resolved from a string: swapping a directory for a symlink between a check and an
// open cannot lead outside the root. On Linux with openat2 the kernel does the whole
// resolution (RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS); elsewhere, and on kernels without
// openat2, os.Root walks component by component with O_NOFOLLOW.
package safefs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// ErrOutside says a path led outside the root when it was opened (a symlink pointing out, or
// one swapped in while the call ran).
var ErrOutside = errors.New("path leads outside the root")

// Root is an open directory every access resolves beneath. It is safe for concurrent use;
// Close it when done.
type Root struct {
	dir  *os.File // the root's directory handle, for openat2
	tree *os.Root // the same directory, for the operations openat2 does not cover
}

// Open opens dir as a Root.
func Open(dir string) (*Root, error) {
	tree, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open root %s: %w", dir, err)
	}
	d, err := os.Open(dir)
	if err != nil {
		tree.Close()
		return nil, fmt.Errorf("open root %s: %w", dir, err)
	}
	return &Root{dir: d, tree: tree}, nil
}

// Name is the path the root was opened with.
func (r *Root) Name() string { return r.tree.Name() }

// Close releases the root's handles.
func (r *Root) Close() error {
	err := r.tree.Close()
	if derr := r.dir.Close(); err == nil {
		err = derr
	}
	return err
}

// clean turns a slash-separated path relative to the root into the form os.Root expects.
func clean(rel string) string {
	rel = path.Clean(strings.TrimPrefix(rel, "/"))
	if rel == "" {
		return "."
	}
	return rel
}

// OpenFile opens rel for reading. It never blocks on a FIFO (O_NONBLOCK): callers check the
// handle's Stat before reading.
func (r *Root) OpenFile(rel string) (*os.File, error) {
	return r.open(clean(rel), os.O_RDONLY|syscall.O_NONBLOCK)
}

// Stat describes rel (symlinks inside the root followed) through a handle opened beneath it.
func (r *Root) Stat(rel string) (fs.FileInfo, error) {
	f, err := r.open(clean(rel), os.O_RDONLY|syscall.O_NONBLOCK)
	if err != nil {
		if errors.Is(err, syscall.EACCES) { // unreadable but present: say what it is
			return r.tree.Stat(clean(rel))
		}
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// Lstat describes rel without following a symlink at its end.
func (r *Root) Lstat(rel string) (fs.FileInfo, error) { return wrap(r.tree.Lstat(clean(rel))) }

// Readlink returns the target of the symlink rel.
func (r *Root) Readlink(rel string) (string, error) { return wrap(r.tree.Readlink(clean(rel))) }

// ReadFile reads the whole of rel.
func (r *Root) ReadFile(rel string) ([]byte, error) {
	f, err := r.OpenFile(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", rel)
	}
	data := make([]byte, 0, info.Size()+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				return data, nil
			}
			return nil, err
		}
	}
}

// FS is the root as an fs.FS (for fs.WalkDir): every directory read opens beneath the root.
func (r *Root) FS() fs.FS { return r.tree.FS() }

// MkdirAll creates rel and any missing parents beneath the root.
func (r *Root) MkdirAll(rel string, perm fs.FileMode) error {
	return wrapErr(r.tree.MkdirAll(clean(rel), perm))
}

// WriteFileAtomic replaces rel with data: a temp file is created inside the parent's directory
// handle and renamed over rel relative to that same handle, so a reader never sees half a file
// and nothing is written outside the root. Missing parents are created; an existing file keeps
// its mode, a new one gets newMode. created says the file is new.
func (r *Root) WriteFileAtomic(rel string, data []byte, newMode fs.FileMode) (created bool, err error) {
	rel = clean(rel)
	if rel == "." {
		return false, fmt.Errorf("%s is a directory", rel)
	}
	parentRel, base := path.Split(rel)
	parentRel = clean(parentRel)
	if err := r.MkdirAll(parentRel, 0o755); err != nil {
		return false, fmt.Errorf("create directory %s: %w", parentRel, err)
	}
	parent, err := r.tree.OpenRoot(parentRel)
	if err != nil {
		return false, fmt.Errorf("open directory %s: %w", parentRel, wrapErr(err))
	}
	defer parent.Close()
	mode := newMode
	info, err := parent.Lstat(base)
	switch {
	case err == nil && info.IsDir():
		return false, fmt.Errorf("%s is a directory", rel)
	case err == nil && info.Mode().IsRegular():
		mode = info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	case err == nil: // a symlink or special file is replaced, never written through
	case errors.Is(err, fs.ErrNotExist):
		created = true
	default:
		return false, fmt.Errorf("stat %s: %w", rel, err)
	}
	tmpName, tmp, err := createTemp(parent, base)
	if err != nil {
		return false, fmt.Errorf("create temp file in %s: %w", parentRel, err)
	}
	defer func() {
		if err != nil {
			_ = parent.Remove(tmpName)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write %s: %w", tmpName, err)
	}
	if err = tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("sync %s: %w", tmpName, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		tmp.Close()
		return false, fmt.Errorf("chmod %s: %w", tmpName, err)
	}
	if err = tmp.Close(); err != nil {
		return false, fmt.Errorf("close %s: %w", tmpName, err)
	}
	if err = parent.Rename(tmpName, base); err != nil {
		return false, fmt.Errorf("rename into %s: %w", rel, err)
	}
	return created, nil
}

// createTemp creates a new file named after base inside dir, exclusively.
func createTemp(dir *os.Root, base string) (string, *os.File, error) {
	for range 10 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		name := "." + base + ".troupe-" + hex.EncodeToString(b[:])
		f, err := dir.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, errors.New("no free temp file name")
}

// wrap marks os.Root's escape error as ErrOutside.
func wrap[T any](v T, err error) (T, error) { return v, wrapErr(err) }

func wrapErr(err error) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		// os.Root's sentinel is unexported; its text is stable API behaviour.
		return fmt.Errorf("%w: %w", ErrOutside, err)
	}
	return err
}
