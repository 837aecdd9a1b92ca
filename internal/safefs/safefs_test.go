package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// layout makes root/ with in.txt and a dir, plus out/secret.txt beside it, and symlinks from
// the root: up -> ../out (relative), abs -> out (absolute), inner -> dir (inside).
func layout(t *testing.T) (root, out string) {
	t.Helper()
	base := t.TempDir()
	root, out = filepath.Join(base, "root"), filepath.Join(base, "out")
	for _, d := range []string{filepath.Join(root, "dir"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, text := range map[string]string{filepath.Join(root, "dir", "in.txt"): "inside", filepath.Join(out, "secret.txt"): "SECRET"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"up": "../out", "abs": out, "inner": "dir", "proc": "/proc/self/root"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root, out
}

// bothOpeners runs f with openat2 (where the kernel has it) and with the os.Root walk.
func bothOpeners(t *testing.T, f func(t *testing.T)) {
	t.Run("openat2", f)
	t.Run("walk", func(t *testing.T) {
		was := openat2Missing.Swap(true)
		t.Cleanup(func() { openat2Missing.Store(was) })
		f(t)
	})
}

func TestOpenRefusesEveryWayOut(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the openat2 path is Linux only")
	}
	bothOpeners(t, func(t *testing.T) {
		root, _ := layout(t)
		r, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for _, p := range []string{"up/secret.txt", "abs/secret.txt", "../out/secret.txt", "dir/../../out/secret.txt", "proc/etc/passwd"} {
			if f, err := r.OpenFile(p); err == nil {
				f.Close()
				t.Errorf("OpenFile(%q) succeeded; want it refused", p)
			} else if !errors.Is(err, ErrOutside) {
				t.Errorf("OpenFile(%q) = %v; want ErrOutside", p, err)
			}
		}
		data, err := r.ReadFile("inner/in.txt")
		if err != nil || string(data) != "inside" {
			t.Errorf("ReadFile through a symlink inside the root = %q, %v; want \"inside\"", data, err)
		}
	})
}

func TestWriteFileAtomicStaysInside(t *testing.T) {
	bothOpeners(t, func(t *testing.T) {
		root, out := layout(t)
		r, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if _, err := r.WriteFileAtomic("up/planted.txt", []byte("x"), 0o644); !errors.Is(err, ErrOutside) {
			t.Errorf("WriteFileAtomic through a symlink out = %v; want ErrOutside", err)
		}
		if _, err := os.Lstat(filepath.Join(out, "planted.txt")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a file was created outside the root: %v", err)
		}
		created, err := r.WriteFileAtomic("new/deep/f.txt", []byte("hello"), 0o600)
		if err != nil || !created {
			t.Fatalf("WriteFileAtomic new file = %v, %v", created, err)
		}
		info, err := os.Stat(filepath.Join(root, "new", "deep", "f.txt"))
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("new file: %v, mode %v; want mode 0600", err, info.Mode())
		}
		if err := os.Chmod(filepath.Join(root, "dir", "in.txt"), 0o755); err != nil {
			t.Fatal(err)
		}
		created, err = r.WriteFileAtomic("dir/in.txt", []byte("changed"), 0o644)
		if err != nil || created {
			t.Fatalf("WriteFileAtomic existing file = %v, %v", created, err)
		}
		info, _ = os.Stat(filepath.Join(root, "dir", "in.txt"))
		if info.Mode().Perm() != 0o755 {
			t.Errorf("an overwritten file's mode became %v; want 0755 kept", info.Mode().Perm())
		}
		entries, _ := os.ReadDir(filepath.Join(root, "dir"))
		if len(entries) != 1 {
			t.Errorf("temp files left behind: %v", entries)
		}
	})
}

func TestOpenFileDoesNotBlockOnAFIFO(t *testing.T) {
	root, _ := layout(t)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	info, err := r.Stat("pipe")
	if err != nil || info.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("Stat(pipe) = %v, %v; want a named pipe", info, err)
	}
}
