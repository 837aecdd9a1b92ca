package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// UserFileName is the user profile's file in the user's config directory.
const UserFileName = "memory.json"

// UserFile keeps the user profile in a small JSON file shared by every project: several
// projects' Nodes may write it at once, so a change happens under an exclusive lock on the file
// beside it (Path + ".lock"), and lands by an atomic rename, so a reader without the lock
// sees the old list or the new one, never half of one.
type UserFile struct {
	Path string
	// LockWait bounds the wait for another writer; 0 means 10 seconds.
	LockWait time.Duration
}

// userFileFormat is the file's content.
type userFileFormat struct {
	Version int      `json:"version"`
	Entries []string `json:"entries"`
}

// DamagedError says the stored memory cannot be read. Nothing is changed by reading it: the
// next write sets the damaged copy aside and starts a new list.
type DamagedError struct {
	Where string
	Err   error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s is damaged (%v): it is not used; the next memory write sets it aside (kept as a backup) and starts a new list", e.Where, e.Err)
}

func (e *DamagedError) Unwrap() error { return e.Err }

// Where is the file's path.
func (f UserFile) Where() string { return f.Path }

// Load reads the entries; a missing file is an empty profile.
func (f UserFile) Load() ([]string, error) {
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the user profile: %w", err)
	}
	return f.decode(data)
}

func (f UserFile) decode(data []byte) ([]string, error) {
	var v userFileFormat
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, &DamagedError{Where: f.Path, Err: err}
	}
	if v.Version != 1 {
		return nil, &DamagedError{Where: f.Path, Err: fmt.Errorf("version %d, want 1", v.Version)}
	}
	return v.Entries, nil
}

// Update changes the entries under the lock; see Backend.
func (f UserFile) Update(fn func([]string) ([]string, error)) (string, error) {
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return "", fmt.Errorf("user profile directory: %w", err)
	}
	wait := f.LockWait
	if wait <= 0 {
		wait = 10 * time.Second
	}
	unlock, err := lockPath(f.Path+".lock", wait)
	if err != nil {
		return "", err
	}
	defer unlock()
	entries, err := f.Load()
	var damaged *DamagedError
	if err != nil && !errors.As(err, &damaged) {
		return "", err
	}
	next, err := fn(entries)
	if err != nil {
		return "", err
	}
	recovered := ""
	if damaged != nil {
		recovered = f.Path + ".damaged-" + time.Now().UTC().Format("20060102T150405.000000000Z")
		if err := os.Rename(f.Path, recovered); err != nil {
			return "", fmt.Errorf("set the damaged user profile aside: %w", err)
		}
	}
	data, err := json.MarshalIndent(userFileFormat{Version: 1, Entries: nonNil(next)}, "", "  ")
	if err != nil {
		return "", err
	}
	if err := writeAtomic(f.Path, append(data, '\n')); err != nil {
		return "", fmt.Errorf("write the user profile: %w", err)
	}
	return recovered, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// writeAtomic replaces path with data: a temporary file beside it, synced, renamed over it,
// and the directory synced, so a crash leaves the old file or the new one.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: not every file system syncs a directory
		d.Close()
	}
	return nil
}

// lockPath takes an exclusive lock on the file at path (created if need be), waiting up to
// wait for another holder; unlock releases it.
func lockPath(path string, wait time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the memory lock: %w", err)
	}
	deadline := time.Now().Add(wait)
	pause := 2 * time.Millisecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			return func() { _ = unlockFile(f); f.Close() }, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("another troupe has held the memory lock %s for %v; try again (or remove the lock file if no troupe runs)", path, wait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}
