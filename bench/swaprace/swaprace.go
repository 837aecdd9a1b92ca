//go:build linux

// Package swaprace is the directory↔symlink swap-race campaign against the file tools (issue
// 10, item 1). A workspace directory d is atomically exchanged (renameat2 RENAME_EXCHANGE)
// with a symlink to a directory outside the workspace, over and over, while a tool works on a
// path under d. A leak is any outside content in a result, or any outside file created or
// changed by a tool.
package swaprace

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/troupe-dev/troupe/tools"
)

// Marks that only the outside directory holds.
const (
	outsideSecret   = "OUTSIDE-SECRET"
	outsideOnlyName = "outside-only.txt"
	insideText      = "line marker\n"
	outsideText     = outsideSecret + " line marker\n"
)

// Tools are the file tools the campaign races, in the order it reports them.
var Tools = []string{"read_file", "write_file", "edit_file", "list_dir", "glob", "grep"}

// Stats is one tool's outcome.
type Stats struct {
	Tool     string
	Attempts int
	Leaks    int
	Refused  int // attempts the tool answered with an error result (the swap was seen)
	Swaps    int // exchanges the racer made meanwhile
}

func (s Stats) String() string {
	return fmt.Sprintf("%-10s attempts %6d  leaks %d  refused %5d  swaps %d", s.Tool, s.Attempts, s.Leaks, s.Refused, s.Swaps)
}

// Run races tool attempts times in a fresh layout under dir (which must exist and be empty).
func Run(ctx context.Context, dir, tool string, attempts int) (Stats, error) {
	st := Stats{Tool: tool}
	l, err := newLayout(dir)
	if err != nil {
		return st, err
	}
	defer l.close()
	t, err := findTool(tool)
	if err != nil {
		return st, err
	}
	env := &tools.Env{Root: l.ws, TempDir: filepath.Join(dir, "tmp")}
	defer env.Close()

	raceCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var swaps int
	var swapErr error
	wg.Add(1)
	go func() { // owned here: stopped by stop(), waited for below
		defer wg.Done()
		swaps, swapErr = l.swapUntil(raceCtx)
	}()
	defer func() { stop(); wg.Wait() }()

	for i := 0; i < attempts && ctx.Err() == nil; i++ {
		if err := l.reset(); err != nil {
			return st, err
		}
		res := t.Run(ctx, env, json.RawMessage(argsFor(tool)))
		st.Attempts++
		if res.IsError {
			st.Refused++
		}
		leaked, err := l.leaked(res.Output)
		if err != nil {
			return st, err
		}
		if leaked {
			st.Leaks++
		}
	}
	stop()
	wg.Wait()
	st.Swaps = swaps
	return st, swapErr
}

func findTool(name string) (tools.Tool, error) {
	for _, t := range tools.Builtins() {
		if t.Spec().Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("no tool %q", name)
}

// argsFor is each tool's call on a path under the raced directory d.
func argsFor(tool string) string {
	switch tool {
	case "read_file":
		return `{"path":"d/f.txt"}`
	case "write_file":
		return `{"path":"d/w.txt","content":"model-chosen content\n"}`
	case "edit_file":
		return `{"path":"d/f.txt","old_string":"marker","new_string":"edited"}`
	case "list_dir":
		return `{"path":"d"}`
	case "glob":
		return `{"pattern":"**/*.txt","path":"d"}`
	default:
		return `{"pattern":"marker|SECRET","path":"d"}`
	}
}

// layout is the raced tree: ws/d (a directory) and ws/d.swap (a symlink to out) trade names.
type layout struct {
	ws, out string
	real    *os.Root // the inside directory, wherever its name is now
}

func newLayout(dir string) (*layout, error) {
	l := &layout{ws: filepath.Join(dir, "ws"), out: filepath.Join(dir, "out")}
	for _, d := range []string{filepath.Join(l.ws, "d"), l.out, filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("swaprace layout: %w", err)
		}
	}
	if err := os.Symlink(l.out, filepath.Join(l.ws, "d.swap")); err != nil {
		return nil, fmt.Errorf("swaprace layout: %w", err)
	}
	real, err := os.OpenRoot(filepath.Join(l.ws, "d"))
	if err != nil {
		return nil, fmt.Errorf("swaprace layout: %w", err)
	}
	l.real = real
	return l, l.reset()
}

func (l *layout) close() { l.real.Close() }

// reset puts the inside and outside files back as they were before an attempt.
func (l *layout) reset() error {
	if err := l.real.WriteFile("f.txt", []byte(insideText), 0o644); err != nil {
		return fmt.Errorf("swaprace reset: %w", err)
	}
	for name, text := range map[string]string{"f.txt": outsideText, outsideOnlyName: outsideText} {
		if err := os.WriteFile(filepath.Join(l.out, name), []byte(text), 0o644); err != nil {
			return fmt.Errorf("swaprace reset: %w", err)
		}
	}
	return nil
}

// leaked reports whether output shows outside content or a tool touched the outside files.
func (l *layout) leaked(output string) (bool, error) {
	leak := strings.Contains(output, outsideSecret) || strings.Contains(output, outsideOnlyName)
	if _, err := os.Lstat(filepath.Join(l.out, "w.txt")); err == nil {
		leak = true
		if err := os.Remove(filepath.Join(l.out, "w.txt")); err != nil {
			return leak, fmt.Errorf("swaprace: %w", err)
		}
	}
	if data, err := os.ReadFile(filepath.Join(l.out, "f.txt")); err != nil || string(data) != outsideText {
		leak = true
	}
	entries, err := os.ReadDir(l.out)
	if err != nil {
		return leak, fmt.Errorf("swaprace: %w", err)
	}
	for _, e := range entries { // a temp file left behind outside is a write outside too
		if e.Name() != "f.txt" && e.Name() != outsideOnlyName {
			leak = true
			_ = os.Remove(filepath.Join(l.out, e.Name()))
		}
	}
	return leak, nil
}

// swapUntil exchanges d and d.swap until ctx ends, and leaves d a directory.
func (l *layout) swapUntil(ctx context.Context) (int, error) {
	a, b := filepath.Join(l.ws, "d"), filepath.Join(l.ws, "d.swap")
	n := 0
	for ctx.Err() == nil {
		if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
			return n, fmt.Errorf("swaprace exchange: %w", err)
		}
		n++
	}
	if n%2 == 1 {
		if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
			return n, fmt.Errorf("swaprace exchange: %w", err)
		}
	}
	return n, nil
}
