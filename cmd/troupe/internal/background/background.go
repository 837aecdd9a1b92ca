// Package background starts the project's Node as a background process (troupe serve), for
// run --detach: the session runs on after the submitting process exits.
package background

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

// SetupError says the background node did not come up for a reason the user fixes (its log
// says which); the CLI reports it as a setup error.
type SetupError struct{ msg string }

func (e *SetupError) Error() string { return e.msg }

// StartTimeout bounds the wait for a background node to come up.
const StartTimeout = 10 * time.Second

// Start starts `troupe serve` for the project at root as a background process in its own
// session (no terminal: stdin from /dev/null, output to .troupe/serve.log) and waits for its
// node.json. If another process's Node comes up first, that one is used. nats is the
// configured external NATS ("" for the embedded bus), sandbox the --sandbox flag to pass on.
// A node that does not come up is a *SetupError: what the user must fix is in the log.
func Start(root, nats, sandbox string, stderr io.Writer) (*actors.NodeInfo, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the troupe binary: %w", err)
	}
	if err := os.MkdirAll(actors.StateDir(root), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", actors.StateDir(root), err)
	}
	logPath := filepath.Join(actors.StateDir(root), "serve.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", logPath, err)
	}
	defer logf.Close() // the child has its own copy
	offset, _ := logf.Seek(0, 2)
	args := []string{"serve"}
	if sandbox != "" {
		args = append(args, "--sandbox", sandbox)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = logf, logf // stdin stays nil: /dev/null
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start troupe serve: %w", err)
	}
	fmt.Fprintf(stderr, "troupe: started a background node (troupe serve, pid %d, log %s)\n", cmd.Process.Pid, logPath)
	deadline := time.Now().Add(StartTimeout)
	for {
		if info, err := actors.FindNode(root, nats); err == nil {
			_ = cmd.Process.Release() // it lives on after this process
			return info, nil
		}
		if exited(cmd.Process.Pid) {
			if info, err := actors.FindNode(root, nats); err == nil {
				return info, nil // another process's node won the race
			}
			return nil, &SetupError{fmt.Sprintf("troupe serve stopped before its node came up: %s", logTail(logPath, offset))}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_, _ = cmd.Process.Wait()
			return nil, &SetupError{fmt.Sprintf("troupe serve did not come up within %v (see %s)", StartTimeout, logPath)}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exited reports (and reaps) a child that has ended, without waiting for one that has not.
func exited(pid int) bool {
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	return got == pid || err != nil
}

// logTail is what the child wrote to the log since offset, as one line.
func logTail(path string, offset int64) string {
	data, err := os.ReadFile(path)
	if err != nil || int64(len(data)) < offset {
		return "see " + path
	}
	tail := bytes.TrimSpace(data[offset:])
	if len(tail) == 0 {
		return "see " + path
	}
	return textfmt.ClipLine(string(bytes.ReplaceAll(tail, []byte("\n"), []byte(" | "))), 400)
}
