package mcpclient

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// stopGrace is how long a server gets between SIGTERM and SIGKILL.
const stopGrace = 2 * time.Second

// process is a stdio server's process: its pipes, the tail of its stderr, and its exit.
type process struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *tail
	exited chan struct{}
	once   sync.Once
	err    error // the exit, set before exited closes
}

// startProcess starts the server's command: in its own process group (killed with troupe),
// confined by the sandbox, in cwd or the workspace, with the base environment plus the
// server's env.
func startProcess(opt Options) (*process, error) {
	s := opt.Server
	path, err := lookPath(s.Command, opt.Environ, s.Env)
	if err != nil {
		return nil, fmt.Errorf("mcp server %s: command %q not found (%v): install it, or fix command in %s", s.Name, s.Command, err, s.Source)
	}
	cmd := exec.Command(path, s.Args...)
	cmd.Args[0] = s.Command
	cmd.Dir = s.Cwd
	if cmd.Dir == "" {
		cmd.Dir = opt.Root
	}
	cmd.Env = append([]string(nil), opt.Environ...)
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if opt.Sandbox != nil {
		writable := append([]string{opt.Root}, opt.Writable...)
		writable = append(writable, s.Writable...)
		if err := opt.Sandbox.WrapServer(cmd, writable, opt.Hidden); err != nil {
			return nil, fmt.Errorf("mcp server %s: sandbox: %w", s.Name, err)
		}
	}
	p := &process{name: s.Name, cmd: cmd, stderr: &tail{max: 4096}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("mcp server %s: start %s: %w", s.Name, s.Command, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// lookPath finds command on the PATH the server will have (its env, else the base one).
func lookPath(command string, environ []string, env map[string]string) (string, error) {
	if strings.Contains(command, "/") {
		return exec.LookPath(command)
	}
	path := env["PATH"]
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok && path == "" {
			path = v
		}
	}
	if path == "" {
		return exec.LookPath(command)
	}
	for _, dir := range filepath.SplitList(path) {
		if p, err := exec.LookPath(filepath.Join(dir, command)); err == nil {
			return p, nil
		}
	}
	return "", errors.New("not on PATH")
}

// stop closes stdin, then signals the group: SIGTERM, and SIGKILL after stopGrace. It waits
// for the process to be reaped.
func (p *process) stop() {
	p.once.Do(func() {
		p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(100 * time.Millisecond):
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
			select {
			case <-p.exited:
			case <-time.After(stopGrace):
				syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
				<-p.exited
			}
		}
	})
}

// exitNote says how the process ended, with the last line of its stderr, or "" while it runs.
func (p *process) exitNote() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	note := "exited"
	if p.err != nil {
		note = p.err.Error()
	}
	if last := p.stderr.lastLine(); last != "" {
		note += ": " + last
	}
	return note
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

// lastLine is the last non-empty line written.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
