package store

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// killedStore runs the crash child (see TestCrashChild) until it acknowledged n appends, kills
// it with -9, and returns the directory, whose writes now live in write-ahead (.mem) files.
func killedStore(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	for i := 0; i < n && lines.Scan(); i++ {
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	for lines.Scan() {
	}
	_ = cmd.Wait()
	return dir
}

// TestFlippedWriteAheadLogIsDamage: a flipped bit early in a write-ahead file would make Badger
// drop every later write as if torn by a crash; it is reported as damage instead.
func TestFlippedWriteAheadLogIsDamage(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	dir := killedStore(t, 40)
	mems, _ := filepath.Glob(filepath.Join(dir, "*.mem"))
	flipped := false
	for _, mem := range mems {
		data, err := os.ReadFile(mem)
		if err != nil {
			t.Fatal(err)
		}
		size, ok := walEntryAt(data, walHeaderSize)
		if !ok || size == 0 {
			continue // an empty write-ahead file
		}
		data[walHeaderSize+size/2] ^= 0x08 // inside the first entry, with many after it
		if err := os.WriteFile(mem, data, 0o600); err != nil {
			t.Fatal(err)
		}
		flipped = true
		break
	}
	if !flipped {
		t.Fatal("the killed store has no write-ahead entries")
	}
	openMustBeDamaged(t, dir)
}

// TestEmptyWriteAheadFileIsNotDamage: a .mem file created but never written (a crash right
// after Badger made it) has nothing to check and is no damage.
func TestEmptyWriteAheadFileIsNotDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "00001.mem")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := checkWAL(path); err != nil {
		t.Fatalf("empty write-ahead file: %v", err)
	}
}

// TestOpenAcceptsEmptyWALLeftByAnExit: a process that exits while Badger deletes a flushed log
// (truncate, then remove) leaves it empty; Badger alone refuses that file, the store must not.
func TestOpenAcceptsEmptyWALLeftByAnExit(t *testing.T) {
	dir := closedStoreWithSession(t)
	if err := os.WriteFile(filepath.Join(dir, "00007.mem"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open with an empty write-ahead log: %v", err)
	}
	defer s.Close()
	if log, err := s.Log("s1"); err != nil || len(log) != 4 {
		t.Fatalf("log = %d entries, %v; want 4", len(log), err)
	}
}
