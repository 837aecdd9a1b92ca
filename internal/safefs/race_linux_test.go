package safefs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSwapRaceNeverLeaksOut races reads and atomic writes under root/d against an exchange of
// d with a symlink to a directory outside, with openat2 and with the walk: nothing outside is
// ever read or written.
func TestSwapRaceNeverLeaksOut(t *testing.T) {
	bothOpeners(t, func(t *testing.T) {
		base := t.TempDir()
		root, out := filepath.Join(base, "root"), filepath.Join(base, "out")
		for _, d := range []string{filepath.Join(root, "d"), out} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(root, "d", "f"), []byte("inside"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, "f"), []byte("OUTSIDE"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(out, filepath.Join(root, "swap")); err != nil {
			t.Fatal(err)
		}
		r, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()

		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		swaps := 0
		wg.Add(1)
		go func() { // stopped by stop(), waited for below
			defer wg.Done()
			a, b := filepath.Join(root, "d"), filepath.Join(root, "swap")
			for ctx.Err() == nil {
				if unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE) == nil {
					swaps++
				}
			}
		}()
		leaks, refused := 0, 0
		for range 1000 {
			data, err := r.ReadFile("d/f")
			if err == nil && strings.Contains(string(data), "OUTSIDE") {
				leaks++
			}
			if err != nil {
				refused++
			}
			if _, err := r.WriteFileAtomic("d/w", []byte("x"), 0o644); err != nil && !errors.Is(err, ErrOutside) && !errors.Is(err, fs.ErrNotExist) {
				t.Logf("write refused: %v", err)
			}
		}
		stop()
		wg.Wait()
		t.Logf("%d swaps, %d of 1000 reads refused", swaps, refused)
		if swaps == 0 || refused == 0 {
			t.Errorf("the race did not happen (%d swaps, %d refusals)", swaps, refused)
		}
		entries, _ := os.ReadDir(out)
		if leaks != 0 || len(entries) != 1 {
			t.Errorf("%d reads leaked outside content; outside now holds %d entries (want 1)", leaks, len(entries))
		}
	})
}
