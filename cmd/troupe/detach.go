package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// sessionStart resolves the model and fills start from the settings and flags: the one place
// that turns configuration into what run, resume, chat, loop and a detached run send the Node.
// The caller sets what belongs to its command (ID, Task, Interactive, Yes, a loop step's
// Agent, Parent and LoopStep). client is used only to look up the model of a resumed session.
func (m *Main) sessionStart(s *settings, client *actors.Client, f *commonFlags, start *messages.StartSession) error {
	if start.Resume {
		// Resume with the model and endpoint the session was using unless told otherwise: a
		// transcript meant for a local server must not go to a provider's public endpoint.
		id, err := sessionByID(client, start.ID)
		if err != nil {
			return err
		}
		start.ID = id
		meta, _, err := client.Log(id)
		if err != nil {
			return usageErr("resume %s: %v (see 'troupe sessions')", id, err)
		}
		if f.model == "" && meta.Model != "" {
			s.cfg.Model = meta.Model
			if f.baseURL == "" && meta.BaseURL != "" {
				s.cfg.BaseURL = meta.BaseURL
			}
		}
	}
	model, err := m.checkModel(s.cfg.Model, s.cfg.BaseURL)
	if err != nil {
		return err
	}
	idleGap, err := s.cfg.IdleGapS()
	if err != nil {
		return usageErr("%v", err) // Validate has seen it already
	}
	if f.promptMode != "" {
		modes, _ := config.LoadPromptModes(config.PromptModeDirs(s.root, config.UserDir(m.Getenv))...)
		if _, err := config.FindPromptMode(modes, f.promptMode); err != nil {
			return usageErr("--prompt-mode: %v", err)
		}
		start.PromptMode = f.promptMode
	}
	start.Model, start.BaseURL, start.Mode, start.Workspace, start.MaxTurns = model, s.cfg.BaseURL, messages.Mode(s.cfg.Mode), s.root, f.maxTurns
	start.NoRepair = f.noRepair
	start.Cwd = workingDirIn(s.root)
	start.Allow, start.Ask, start.Deny = s.cfg.Permissions.Allow, s.cfg.Permissions.Ask, s.cfg.Permissions.Deny
	start.ContextWindow, start.IdleGapS = s.cfg.Context.Window, idleGap
	start.Check, start.CheckS, start.MaxRefusals = strings.TrimSpace(s.cfg.Done.Check), s.cfg.Done.CheckTimeoutS, s.cfg.Done.MaxRefusals
	if g := strings.TrimSpace(f.goal); g != "" {
		start.Goal = g
	}
	return nil
}

// runDetached submits task to the project's Node as a headless session and prints its id: the
// session runs on after this process exits. With no Node running, one is started in the
// background (troupe serve, logging to .troupe/serve.log).
func (m *Main) runDetached(f *runFlags, task string) error {
	if f.json {
		return usageErr("--json does not go with --detach: follow the session with troupe attach --json ID")
	}
	s, err := m.resolve(&f.commonFlags)
	if err != nil {
		return err
	}
	start := &messages.StartSession{ID: newSessionID(), Task: task, Yes: f.yes}
	if err := m.sessionStart(s, nil, &f.commonFlags, start); err != nil {
		return err
	}
	info, err := actors.FindNode(s.root, s.cfg.NATS)
	if err != nil {
		if info, err = m.spawnServe(s, f.sandbox); err != nil {
			return err
		}
	}
	nc, err := actors.Dial(info.URL, info.Token, "troupe-detach")
	if err != nil {
		return &exitError{code: exitFailed, msg: fmt.Sprintf("attach to the troupe node at %s: %v", info.URL, err)}
	}
	client := actors.NewClient(nc, info.NS, info.Node)
	defer client.Close()
	if err := client.StartSession(start); err != nil {
		return usageErr("%v", err)
	}
	fmt.Fprintln(m.Stdout, start.ID)
	fmt.Fprintf(m.Stderr, "troupe: session %s runs on node %s (pid %d); follow it with troupe attach %s or troupe watch\n",
		start.ID, info.Node, info.PID, start.ID)
	return nil
}

// serveStartTimeout bounds the wait for a background node to come up.
const serveStartTimeout = 10 * time.Second

// spawnServe starts `troupe serve` for the project as a background process in its own session
// (no terminal: stdin from /dev/null, output to .troupe/serve.log) and waits for its node.json.
// If another process's Node comes up first, that one is used.
func (m *Main) spawnServe(s *settings, sandbox string) (*actors.NodeInfo, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the troupe binary: %w", err)
	}
	if err := os.MkdirAll(actors.StateDir(s.root), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", actors.StateDir(s.root), err)
	}
	logPath := filepath.Join(actors.StateDir(s.root), "serve.log")
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
	cmd.Dir = s.root
	cmd.Stdout, cmd.Stderr = logf, logf // stdin stays nil: /dev/null
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start troupe serve: %w", err)
	}
	fmt.Fprintf(m.Stderr, "troupe: started a background node (troupe serve, pid %d, log %s)\n", cmd.Process.Pid, logPath)
	deadline := time.Now().Add(serveStartTimeout)
	for {
		if info, err := actors.FindNode(s.root, s.cfg.NATS); err == nil {
			_ = cmd.Process.Release() // it lives on after this process
			return info, nil
		}
		if exited(cmd.Process.Pid) {
			if info, err := actors.FindNode(s.root, s.cfg.NATS); err == nil {
				return info, nil // another process's node won the race
			}
			return nil, usageErr("troupe serve stopped before its node came up: %s", logTail(logPath, offset))
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_, _ = cmd.Process.Wait()
			return nil, usageErr("troupe serve did not come up within %v (see %s)", serveStartTimeout, logPath)
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
