// Package background starts the project's Node as a process of its own (troupe serve, in the
// background): every CLI process is a client of it (docs/ARCHITECTURE.md "The node process"),
// and sessions run on after the process that started them exits.
package background

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/prespawn"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

// SetupError says the background node did not come up for a reason the user fixes (its log
// says which); the CLI reports it as a setup error.
type SetupError struct{ msg string }

func (e *SetupError) Error() string { return e.msg }

// StartTimeout bounds the wait for a background node to come up.
const StartTimeout = 10 * time.Second

// DefaultIdle is how long a node started in the background waits with no session running and
// no client connected before it stops (TROUPE_NODE_IDLE overrides it: a Go duration).
const DefaultIdle = 30 * time.Second

// Ready is the line troupe serve writes on its ready pipe once its node.json is in place.
const Ready = "ready"

// Options say which project's node to start and how.
type Options struct {
	Root string
	NATS string // the configured external NATS ("" for the embedded bus)
	// NATSCreds is [bus] creds, passed on as --nats-creds (the node reads the rest of [bus]
	// from the same config and environment); Creds are what a client dials the bus with.
	NATSCreds string
	Creds     actors.BusCredentials
	Sandbox   string        // the --sandbox flag to pass on ("" for the configuration's)
	Idle      time.Duration // 0: DefaultIdle
}

// Start starts `troupe serve` for the project as a background process in its own session (no
// terminal: stdin from /dev/null, output to serve.log in the state directory) and waits for it
// to say it is ready on a pipe: no polling, so a cold start costs what the node's own start
// costs. If another process's node comes up first, that one is used. A node that does not
// come up is a *SetupError: what the user must fix is in the log.
func Start(o Options) (*actors.NodeInfo, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the troupe binary: %w", err)
	}
	dir, err := actors.EnsureStateDir(o.Root)
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, "serve.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", logPath, err)
	}
	defer logf.Close() // the child has its own copy
	offset, _ := logf.Seek(0, 2)
	idle := o.Idle
	if idle <= 0 {
		idle = DefaultIdle
	}
	args := []string{"serve", "--ready-fd", prespawn.ReadyFD(), "--idle", idle.String()}
	if o.Sandbox != "" {
		args = append(args, "--sandbox", o.Sandbox)
	}
	if o.NATS != "" {
		args = append(args, "--nats", o.NATS)
	}
	if o.NATSCreds != "" {
		args = append(args, "--nats-creds", o.NATSCreds)
	}
	ready, proc, err := startServe(exe, o.Root, logPath, logf, args)
	if err != nil {
		return nil, err
	}
	defer ready.Close()
	// While the node starts, this process does the one-time set-up its attach needs: the
	// Ed25519 tables the first NKey signature (actors.Dial) computes, ~1.5 ms of CPU that
	// otherwise comes after the node is ready. The goroutine ends within that; Start waits.
	warmed := make(chan struct{})
	go func() { defer close(warmed); ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)) }()
	defer func() { <-warmed }()
	_ = ready.SetReadDeadline(time.Now().Add(StartTimeout))
	line, readErr := bufio.NewReader(ready).ReadString('\n')
	if strings.TrimSpace(line) == Ready {
		if info, err := actors.FindNode(o.Root, o.NATS); err == nil {
			// It lives on after this process. While this one lives (a chat), it reaps the node
			// when it exits, so no zombie looks alive to troupe stop; the goroutine ends then.
			go func() { _, _ = proc.Wait() }()
			return info, nil
		}
	}
	if errors.Is(readErr, os.ErrDeadlineExceeded) {
		_ = proc.Kill()
		_, _ = proc.Wait()
		return nil, &SetupError{fmt.Sprintf("troupe serve did not come up within %v (see %s)", StartTimeout, logPath)}
	}
	_, _ = proc.Wait() // it closed the pipe without being ready: it exited
	if info, err := actors.FindNode(o.Root, o.NATS); err == nil {
		return info, nil // another process's node won the race
	}
	return nil, &SetupError{fmt.Sprintf("the troupe node did not start: %s", logTail(logPath, offset))}
}

// startServe starts `troupe serve args` in root with its output on logf and fd 3 the write
// end of the returned ready pipe: the node this process's initialisation started, if it did
// (prespawn), told to, else a new process.
func startServe(exe, root, logPath string, logf *os.File, args []string) (*os.File, *os.Process, error) {
	if c := prespawn.Take(); c != nil {
		if err := c.Give(prespawn.Orders{Dir: root, Log: logPath, Args: args}); err == nil {
			return c.Ready, c.Process, nil
		}
		c.Drop() // it exited before its orders came: start another
	}
	ready, readyW, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("ready pipe: %w", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = logf, logf // stdin stays nil: /dev/null
	cmd.ExtraFiles = []*os.File{readyW} // fd 3
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	readyW.Close() // the child's copy is the only writer: its exit is EOF here
	if err != nil {
		ready.Close()
		return nil, nil, fmt.Errorf("start troupe serve: %w", err)
	}
	return ready, cmd.Process, nil
}

// IdleFrom reads TROUPE_NODE_IDLE (a Go duration) through getenv; 0 when unset or bad.
func IdleFrom(getenv func(string) string) time.Duration {
	d, err := time.ParseDuration(getenv("TROUPE_NODE_IDLE"))
	if err != nil || d < 0 {
		return 0
	}
	return d
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
	lines := strings.Split(string(tail), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "troupe: ") // the caller says troupe once
	}
	return textfmt.ClipLine(strings.Join(lines, " | "), 400)
}
