package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Binary is the test server as a program, built once per test process without the race
// detector (a 50 MB result is the server's work, not what the test measures). Call Cleanup
// from TestMain after the tests.
func Binary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "mcptest-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "mcptestserver")
		_, here, _, _ := runtime.Caller(0)
		cmd := exec.Command("go", "build", "-o", built.path, "./mcptestserver")
		cmd.Dir = filepath.Dir(here)
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = &buildError{out: string(out), err: err}
		}
	})
	if built.err != nil {
		t.Fatalf("build the MCP test server: %v", built.err)
	}
	return built.path
}

// Cleanup removes the built server.
func Cleanup() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }
