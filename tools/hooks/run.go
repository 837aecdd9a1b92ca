package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// MaxOutput bounds what is kept of a hook's stdout and of its stderr; more is read and dropped
// (so the hook is not blocked writing) and makes the run an error.
const MaxOutput = 1 << 20

// Run is one hook's process as it ended.
type Run struct {
	Hook   Hook
	Exit   int // -1 when it did not exit by itself (not started, timed out, killed)
	Stdout string
	Stderr string
	// Failure says why the run is an error beyond its exit code: it could not start, it timed
	// out, it printed more than MaxOutput.
	Failure string
	Took    time.Duration
}

// Exec runs hook h with sh -c in dir, stdin on its standard input, env as its environment,
// bounded by the hook's timeout and by ctx. On either its whole process group is killed, so
// a hook that forks a loop does not outlive it.
func Exec(ctx context.Context, h Hook, dir string, env []string, stdin []byte) Run {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, time.Duration(h.Timeout())*time.Second)
	defer cancel()
	cmd := exec.Command("sh", "-c", h.Command)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, bytes.NewReader(stdin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stdout, stderr := &capped{}, &capped{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// A hook that leaves a background child holding its output open is not waited for.
	cmd.WaitDelay = 500 * time.Millisecond
	run := Run{Hook: h, Exit: -1}
	if err := cmd.Start(); err != nil {
		run.Failure = fmt.Sprintf("could not start: %v", err)
		run.Took = time.Since(start)
		return run
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
		// The shell may have left children holding the pipes; they go with the group.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			run.Failure = fmt.Sprintf("timed out after %ds and was killed", h.Timeout())
		} else {
			run.Failure = "cancelled"
		}
	}
	run.Took = time.Since(start)
	run.Stdout, run.Stderr = stdout.String(), stderr.String()
	if run.Failure != "" {
		return run
	}
	var exit *exec.ExitError
	switch {
	case err == nil, errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil:
		// (A child it left behind held its output open; the hook itself has exited.)
		run.Exit = cmd.ProcessState.ExitCode()
	case errors.As(err, &exit):
		run.Exit = exit.ExitCode()
	default:
		run.Failure = err.Error()
	}
	if run.Exit == 127 {
		run.Failure = "command not found (exit 127): " + firstLine(run.Stderr)
	}
	if stdout.over || stderr.over {
		run.Failure = fmt.Sprintf("printed more than %d bytes; the rest was dropped", MaxOutput)
	}
	return run
}

// capped keeps the first MaxOutput bytes written to it and counts the rest away.
type capped struct {
	buf  bytes.Buffer
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := max(MaxOutput-c.buf.Len(), 0)
	if len(p) > room {
		c.over = true
	}
	c.buf.Write(p[:min(room, len(p))])
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }

var _ io.Writer = (*capped)(nil)

func firstLine(s string) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace([]byte(s)), []byte("\n"))
	return string(line)
}
